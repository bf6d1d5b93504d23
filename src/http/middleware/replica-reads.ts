/**
 * @module Requests that only read, answered from a streaming standby when one is configured and near
 * enough: any for an anonymous caller; for a signed-in caller, one that has replayed their last write,
 * whose WAL position each of their writes notes on the primary (docs/scaling.md, "Read-your-writes").
 */
import type { Context } from 'hono';
import type { Database } from '../../db/client.js';
import { codeOf } from '../../db/errors.js';
import { findWritePosition, noteWritePosition } from '../../db/queries/write-positions.js';
import { parseLsn, type Replicas } from '../../db/replicas.js';
import type { Logger } from '../../log.js';
import type { AppEnv } from '../env.js';

/** The handler's answer, on whichever database the request was given. */
type Answer = () => Response | Promise<Response>;

/** Sets the request's `database` to a standby where one may answer, runs `answer`, and answers again on the primary should the standby fail. */
export type ReadFromReplica = (c: Context<AppEnv>, answer: Answer) => Promise<Response>;

export function replicaReads(primary: Database, replicas: Replicas<Database>): ReadFromReplica {
  return async function readFromReplica(c, answer) {
    // No standby answers now: the primary does, without a lookup of the caller's position.
    if (!replicas.anyStreaming()) return answer();
    const { caller } = c.get('ctx');
    // Anonymous callers cannot write: they have no writes to wait for.
    const lsn = caller.kind === 'user' ? await findWritePosition(primary.db, { userId: caller.id }) : undefined;
    const replica = replicas.choose(lsn === undefined ? undefined : parseLsn(lsn));
    if (!replica) return answer();
    c.set('database', replica.database);
    try {
      return await answer();
    } catch (error) {
      // A standby's failure is never the caller's: the read is made once more, on the primary.
      if (!replicas.failed(replica, error)) throw error;
      c.set('database', primary);
      // The first attempt spent what the request costs.
      c.set('rateLimiter', undefined);
      return answer();
    }
  };
}

/**
 * After a signed-in caller's write: notes on the primary where its WAL stands, so that their next reads, in
 * any process, go to a standby that has replayed the write. Should noting fail (the primary went away just
 * after the write), the write still stands and is answered: a 503 would invite the caller to write twice.
 */
export async function noteWrite(primary: Database, c: Context<AppEnv>, log: Logger): Promise<void> {
  const caller = c.get('ctx')?.caller;
  if (caller?.kind !== 'user') return;
  await noteWritePosition(primary.db, { userId: caller.id }).catch((error: unknown) => {
    log.error('the position of a write could not be noted', { code: codeOf(error) });
  });
}
