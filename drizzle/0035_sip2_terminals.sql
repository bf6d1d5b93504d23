-- SIP2 terminals: self-check machines and sorters that sign in to the SIP2 listener, each with a login, its
-- password as a scrypt hash, its institution id, error detection and character set, the branch it stands at
-- and the librarian whose rights it uses.
CREATE TABLE "sip2_terminals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sip2_terminals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"login" text NOT NULL,
	"password_hash" text NOT NULL,
	"institution_id" text NOT NULL,
	"error_detection" boolean DEFAULT true NOT NULL,
	"charset" text DEFAULT 'utf-8' NOT NULL,
	"branch_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sip2_terminals_charset_known" CHECK ("sip2_terminals"."charset" in ('utf-8', 'iso-8859-1')),
	CONSTRAINT "sip2_terminals_login_shape" CHECK ("sip2_terminals"."login" ~ '^[^|[:cntrl:]]{1,64}$'),
	CONSTRAINT "sip2_terminals_institution_shape" CHECK ("sip2_terminals"."institution_id" ~ '^[^|[:cntrl:]]{0,64}$')
);
--> statement-breakpoint
ALTER TABLE "sip2_terminals" ADD CONSTRAINT "sip2_terminals_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip2_terminals" ADD CONSTRAINT "sip2_terminals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sip2_terminals_login_idx" ON "sip2_terminals" USING btree ("login");