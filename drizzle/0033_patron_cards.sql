-- Patrons at the desk: a library card's number (unique, like a copy's barcode) and a PIN kept only as its
-- scrypt hash, with the wrong PINs counted for the lockout; an email address and a language for notices.
ALTER TABLE "users" ADD COLUMN "card_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_card_number_idx" ON "users" USING btree ("card_number");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_card_number_not_blank" CHECK ("users"."card_number" is null or btrim("users"."card_number") <> '');--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_card_number_length" CHECK ("users"."card_number" is null or char_length("users"."card_number") <= 64);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pin_failures_not_negative" CHECK ("users"."pin_failures" >= 0);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_email_shape" CHECK ("users"."email" is null or ("users"."email" ~ '^[^@[:space:][:cntrl:]]+@[^@[:space:][:cntrl:]]+$' and char_length("users"."email") <= 254));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_tag" CHECK ("users"."language" is null or ("users"."language" ~ '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$' and char_length("users"."language") <= 35));