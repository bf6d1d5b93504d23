-- Where each signed-in caller's last write reached in the WAL, for reads from standbys. UNLOGGED: written on
-- every write request when standbys are configured, it costs no WAL; a crash empties it, which only lets a
-- caller's next reads go to any standby within the lag allowed.
CREATE UNLOGGED TABLE "write_positions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL
);
