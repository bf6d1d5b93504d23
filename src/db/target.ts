/** @module Where the catalogue keeps its data, as configuration names it and `openDatabase` opens it. */

/** Where the catalogue keeps its data. */
export type DatabaseTarget =
  /**
   * A PostgreSQL server reached through postgres.js; a URL that lists several hosts carries
   * `target_session_attrs=read-write` (added when left out), so that writes find the primary. Streaming
   * standbys to read from, when given.
   */
  | {
      kind: 'postgres';
      url: string;
      /**
       * `false` when `url` leads through a pooler that hands each transaction any server connection
       * (pgbouncer's transaction mode): no named server-side statements (`DATABASE_PREPARE`). Default true.
       */
      prepare?: boolean;
      /**
       * A direct connection, for what needs one session throughout: LISTEN, and the start-up lock that makes
       * migrations take turns (`DATABASE_LISTEN_URL`). Default: `url`.
       */
      listenUrl?: string;
      replicas?: ReplicasTarget;
    }
  /** Embedded PostgreSQL (PGlite) in a directory, or `memory://` for a throw-away database. */
  | { kind: 'pglite'; dataDir: string };

/** Streaming standbys of the primary that reads may be answered from (docs/scaling.md, "Read replicas"). */
export interface ReplicasTarget {
  /** One `postgres://` URL per standby (`DATABASE_REPLICA_URLS`, comma-separated). */
  urls: string[];
  /** A standby further behind than this gets no reads (`CATALOGUE_REPLICA_MAX_LAG`, seconds). */
  maxLagSeconds: number;
}
