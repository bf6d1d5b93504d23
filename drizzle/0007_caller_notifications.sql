-- Each server process keeps, in memory, who a bearer token belongs to (src/db/callers.ts), so that a
-- request is not a database round trip before it starts. Every change that could alter what it keeps
-- says so, in the writing transaction, on the channel `catalogue_callers`, naming the user concerned:
-- a token revoked or changed, a user renamed, demoted or removed, and a loan taken or returned (the
-- per-member loan cap reads the caller's active loans). Every process listens and forgets that user.
-- PostgreSQL delivers a notification only once its transaction commits, and merges repeats of one
-- payload within a transaction.
CREATE FUNCTION notify_caller_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('catalogue_callers', to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('catalogue_callers', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tokens_notify_callers
AFTER UPDATE OR DELETE ON tokens
FOR EACH ROW EXECUTE FUNCTION notify_caller_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER users_notify_callers
AFTER UPDATE OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION notify_caller_changed('id');
--> statement-breakpoint
CREATE TRIGGER loans_notify_callers
AFTER INSERT OR UPDATE OR DELETE ON loans
FOR EACH ROW EXECUTE FUNCTION notify_caller_changed('borrower_id');
