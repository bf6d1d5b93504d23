ALTER TABLE "tokens" ADD COLUMN "operator" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Tokens registered from CATALOGUE_ADMIN_TOKEN before this column existed carry that name.
UPDATE "tokens" SET "operator" = true WHERE "name" = 'CATALOGUE_ADMIN_TOKEN';
--> statement-breakpoint
-- A catalogue always keeps a librarian, and the owner of the operator's token is one: the last librarian
-- cannot be demoted (or removed), or nobody could manage users again, and the operator's token must keep
-- meaning a librarian. Enforced here so that two librarians demoting each other at once cannot both
-- succeed: each change takes the same transaction-scoped advisory lock before looking, and the look is a
-- new statement, so it sees what the other committed.
CREATE FUNCTION users_keep_a_librarian() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND EXISTS (SELECT 1 FROM tokens WHERE user_id = OLD.id AND operator) THEN
    RAISE EXCEPTION 'the owner of the operator''s token stays a librarian'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'users_operator_stays_librarian';
  END IF;
  PERFORM pg_advisory_xact_lock(7305412);
  IF NOT EXISTS (SELECT 1 FROM users WHERE role = 'librarian') THEN
    RAISE EXCEPTION 'the catalogue must keep at least one librarian'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'users_keep_a_librarian';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_keep_a_librarian_on_demotion
AFTER UPDATE OF role ON users
FOR EACH ROW WHEN (OLD.role = 'librarian' AND NEW.role <> 'librarian')
EXECUTE FUNCTION users_keep_a_librarian();
--> statement-breakpoint
CREATE TRIGGER users_keep_a_librarian_on_removal
AFTER DELETE ON users
FOR EACH ROW WHEN (OLD.role = 'librarian')
EXECUTE FUNCTION users_keep_a_librarian();
