/**
 * @module The primary's streaming standbys, as reads see them: a probe per standby, about once a second,
 * tells how far behind it is (by WAL position and time) or that it is down, and `choose` picks a standby a
 * read may go to, one that has replayed a given position when the caller wrote. docs/scaling.md says why.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from '../log.js';
import { type Db, rowsOf } from './db.js';
import { codeOf, databaseUnavailability } from './errors.js';
import { within } from './within.js';

/** How a standby stands, as the last probe found it. */
export type ReplicaState =
  /** Not probed yet: no reads until it is. */
  | 'starting'
  /** Within the lag allowed: it answers reads. */
  | 'streaming'
  /** Further behind than the lag allowed: no reads until it catches up. */
  | 'lagging'
  /** It does not answer: no reads; probed again each round. */
  | 'down'
  /** It answers but is not in recovery (promoted, or not a standby at all): its data may have diverged. */
  | 'not-standby';

/** What the probe needs of a standby's database: to query it, and to close it with the rest. */
export interface StandbyDatabase {
  readonly db: Db;
  close(): Promise<void>;
}

/** One standby, with what the probe last learnt of it; `D` is the database reads are handed. */
export interface Replica<D extends StandbyDatabase> {
  /** `replica 1`, `replica 2`… in the order of `DATABASE_REPLICA_URLS`: never the URL, which may hold a password. */
  readonly name: string;
  readonly database: D;
  state: ReplicaState;
  /** The WAL position it has replayed, as last probed. */
  replayed: bigint | undefined;
  /** How long ago the primary was at a position it has not replayed yet (0 when it has replayed everything). */
  lagSeconds: number | undefined;
  /** Bytes of WAL the primary had written that it had not replayed. */
  lagBytes: bigint | undefined;
}

/** What `/health` says of a standby: its state and lag, nothing that locates it. */
export interface ReplicaHealth {
  role: 'replica';
  name: string;
  state: ReplicaState;
  lag_seconds: number | null;
  lag_bytes: number | null;
}

export interface ReplicasOptions {
  /** A standby further behind than this gets no reads. */
  maxLagSeconds: number;
  /** Milliseconds between probes; a second by default. */
  probeIntervalMs?: number;
  log?: Logger | undefined;
}

/** Milliseconds a probe's query may take before its database counts as down. */
const PROBE_DEADLINE_MS = 2_000;
/** The primary's positions remembered, one per probe: enough to date any lag up to this many probes. */
const HISTORY = 600;

export class Replicas<D extends StandbyDatabase> {
  readonly all: readonly Replica<D>[];
  readonly #primary: Db;
  readonly #maxLagSeconds: number;
  readonly #log: Logger | undefined;
  readonly #timer: NodeJS.Timeout;
  /** The primary's WAL position at each recent probe, oldest first (milliseconds of `performance.now()`). */
  readonly #history: { at: number; lsn: bigint }[] = [];
  #probing: Promise<void> | undefined;
  #next = 0;
  #closed = false;

  constructor(primary: Db, standbys: { name: string; database: D }[], options: ReplicasOptions) {
    this.#primary = primary;
    this.#maxLagSeconds = options.maxLagSeconds;
    this.#log = options.log;
    this.all = standbys.map(({ name, database }) => ({
      name,
      database,
      state: 'starting',
      replayed: undefined,
      lagSeconds: undefined,
      lagBytes: undefined,
    }));
    this.#timer = setInterval(() => void this.probe(), options.probeIntervalMs ?? 1000);
    this.#timer.unref();
    void this.probe();
  }

  /** Whether any standby answers reads now. */
  anyStreaming(): boolean {
    return this.all.some((replica) => replica.state === 'streaming');
  }

  /**
   * A standby for a read, taking turns among those streaming within the lag allowed; with `position` (the
   * caller's last write), only one the probe saw replay it. `undefined`: read from the primary.
   */
  choose(position?: bigint): Replica<D> | undefined {
    const count = this.all.length;
    for (let i = 0; i < count; i++) {
      const replica = this.all[(this.#next + i) % count] as Replica<D>;
      if (replica.state !== 'streaming') continue;
      if (position !== undefined && (replica.replayed === undefined || replica.replayed < position)) continue;
      this.#next = (this.#next + i + 1) % count;
      return replica;
    }
    return undefined;
  }

  /**
   * Whether `error`, met reading from `replica`, is the standby's failure rather than the request's, so
   * that the read is made again on the primary: it could not be reached (it is set aside until a probe
   * finds it again), its replay cancelled the read (a recovery conflict), or the read wrote.
   */
  failed(replica: Replica<D>, error: unknown): boolean {
    const why = databaseUnavailability(error);
    if (why === 'unreachable') {
      this.#set(replica, 'down', { code: codeOf(error) });
      return true;
    }
    if (why === 'contended') return true;
    if (why === 'read-only') {
      this.#log?.error('a read-only request wrote; it was answered from the primary', { replica: replica.name });
      return true;
    }
    return false;
  }

  /** One round of probes: the primary's position, then each standby's, compared. */
  probe(): Promise<void> {
    this.#probing ??= this.#probeAll().finally(() => {
      this.#probing = undefined;
    });
    return this.#probing;
  }

  health(): ReplicaHealth[] {
    return this.all.map(({ name, state, lagSeconds, lagBytes }) => ({
      role: 'replica',
      name,
      state,
      lag_seconds: lagSeconds === undefined || !Number.isFinite(lagSeconds) ? null : Math.round(lagSeconds * 10) / 10,
      lag_bytes: lagBytes === undefined ? null : Number(lagBytes),
    }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#probing;
    await Promise.all(this.all.map((replica) => replica.database.close()));
  }

  async #probeAll(): Promise<void> {
    if (this.#closed) return;
    // The primary first: a standby then has the time of a round trip to pass the position it is compared with.
    const primary = await within(
      this.#primary.execute(sql`select pg_current_wal_lsn()::text as lsn`),
      PROBE_DEADLINE_MS,
    ).then(
      (result) => rowsOf<{ lsn: string }>(result)[0]?.lsn,
      () => undefined,
    );
    const at = performance.now();
    if (primary !== undefined) {
      this.#history.push({ at, lsn: parseLsn(primary) });
      if (this.#history.length > HISTORY) this.#history.shift();
    }
    await Promise.all(this.all.map((replica) => this.#probeReplica(replica, at, primary !== undefined)));
  }

  async #probeReplica(replica: Replica<D>, at: number, primaryKnown: boolean): Promise<void> {
    let row: StandbyRow | undefined;
    try {
      [row] = rowsOf<StandbyRow>(
        await within(
          replica.database.db.execute(sql`
            select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed,
              extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as "sinceReplay"`),
          PROBE_DEADLINE_MS,
        ),
      );
    } catch (error) {
      this.#set(replica, 'down', { code: codeOf(error) });
      return;
    }
    if (this.#closed) return;
    if (!row?.standby || row.replayed === null) {
      this.#set(replica, 'not-standby');
      return;
    }
    replica.replayed = parseLsn(row.replayed);
    // Without the primary's position (it does not answer) the last judgement of the lag stands.
    if (!primaryKnown) {
      if (replica.state === 'down' || replica.state === 'starting') this.#set(replica, 'lagging');
      return;
    }
    const latest = this.#history.at(-1) as { at: number; lsn: bigint };
    replica.lagBytes = latest.lsn > replica.replayed ? latest.lsn - replica.replayed : 0n;
    replica.lagSeconds = this.#lagSeconds(replica.replayed, at, row.sinceReplay);
    this.#set(replica, replica.lagSeconds > this.#maxLagSeconds ? 'lagging' : 'streaming');
  }

  /**
   * Seconds since the primary was last at a position the standby has replayed: 0 when it has replayed all
   * the primary had, however old its last transaction (an idle primary writes nothing to replay). Dated by
   * the probes' own clock, so to within a probe's interval; beyond the history kept, by the standby's
   * `now() - pg_last_xact_replay_timestamp()`.
   */
  #lagSeconds(replayed: bigint, at: number, sinceReplay: number | null): number {
    for (let i = this.#history.length - 1; i >= 0; i--) {
      const sample = this.#history[i] as { at: number; lsn: bigint };
      if (sample.lsn <= replayed) return (at - sample.at) / 1000;
    }
    const oldest = this.#history[0] as { at: number };
    return Math.max((at - oldest.at) / 1000, sinceReplay ?? Number.POSITIVE_INFINITY);
  }

  /** `why`: the driver's error code, for the log line of a standby going down; never its message, which may name the host. */
  #set(replica: Replica<D>, state: ReplicaState, why: { code?: string | undefined } = {}): void {
    if (replica.state === state) return;
    const was = replica.state;
    replica.state = state;
    if (state === 'down' || state === 'not-standby') {
      replica.lagSeconds = undefined;
      replica.lagBytes = undefined;
    }
    // Every change after the first judgement is news to an operator: a standby set aside or back.
    if (was !== 'starting' || state !== 'streaming') {
      const lag = replica.lagSeconds === undefined ? {} : { lagSeconds: Math.round(replica.lagSeconds * 10) / 10 };
      const message = `replica ${state}`;
      if (state === 'streaming') this.#log?.info(message, { replica: replica.name, ...lag });
      else this.#log?.error(message, { replica: replica.name, ...lag, ...(why.code && { code: why.code }) });
    }
  }
}

interface StandbyRow {
  standby: boolean;
  replayed: string | null;
  sinceReplay: number | null;
}

/** A WAL position (`16/B374D848`: two hexadecimal halves) as a number that compares as positions do. */
export function parseLsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}
