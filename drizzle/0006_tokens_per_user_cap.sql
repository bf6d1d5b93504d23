-- A user holds at most 100 tokens (MAX_TOKENS_PER_USER in src/domain/limits.ts; a test keeps the two
-- equal). Enforced here so that concurrent creations cannot each see room for one more: each insert
-- first locks its user's row, so the count is taken after any other insert for that user committed.
-- Existing users above the cap keep their tokens; they only cannot create more. The operator's token
-- (CATALOGUE_ADMIN_TOKEN, registered at start-up) is never refused.
CREATE FUNCTION tokens_per_user_cap() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.operator THEN
    RETURN NEW;
  END IF;
  PERFORM 1 FROM users WHERE id = NEW.user_id FOR NO KEY UPDATE;
  IF (SELECT count(*) FROM tokens WHERE user_id = NEW.user_id) >= 100 THEN
    RAISE EXCEPTION 'a user holds at most 100 tokens'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'tokens_per_user_cap';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tokens_per_user_cap
BEFORE INSERT ON tokens
FOR EACH ROW EXECUTE FUNCTION tokens_per_user_cap();
