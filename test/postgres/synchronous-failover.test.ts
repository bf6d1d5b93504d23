/**
 * Synchronous replication keeps every acknowledged write through a failover: writers keep creating authors
 * through the service while the primary is killed (`-m immediate`) and the standby promoted; every write
 * answered 201 is on the new primary, and every other answer is a 503 with Retry-After, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from '../reliability/figures.js';
import { createReplicatedClusters, multiHostUrl, psql, type ReplicatedClusters } from '../support/pg-cluster.js';
import { millisecondsUntil } from '../support/poll.js';
import { call, type RunningServer, startServer } from '../support/server.js';

const ADMIN_TOKEN = 'synchronous-admin-token-0123456789abcdef';
const WRITERS = 8;

interface Answer {
  name: string;
  status: number;
  retryAfter: string | null;
  /** The body of an answer other than 201. */
  body?: unknown;
}

describe('failover with synchronous replication', () => {
  let clusters: ReplicatedClusters;
  let server: RunningServer;

  beforeAll(async () => {
    clusters = await createReplicatedClusters({ synchronous: true });
    server = await startServer({
      database: { env: { DATABASE_URL: multiHostUrl(clusters) } },
      env: { CATALOGUE_ADMIN_TOKEN: ADMIN_TOKEN, CATALOGUE_SEED: 'none', CATALOGUE_RATE_LIMITS: 'off' },
    });
  });

  afterAll(async () => {
    await server?.kill();
    clusters?.drop();
  });

  it('loses no write that was answered 201 when the primary is killed mid-stream', async () => {
    expect(psql(clusters.primary.url, 'show synchronous_standby_names')).toBe('*');
    const answers: Answer[] = [];
    const inFlight = new Set<string>();
    /** Writes under way at some moment while the primary was being killed. */
    const caughtByTheKill = new Set<string>();
    let dying = false;
    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, writer) => {
      for (let i = 0; writing; i++) {
        const name = `Writer ${writer} Author ${i}`;
        inFlight.add(name);
        if (dying) caughtByTheKill.add(name);
        const response = await call(server, ADMIN_TOKEN, 'POST', '/authors', { name });
        inFlight.delete(name);
        const body = response.status === 201 ? await response.body?.cancel() : await response.json();
        answers.push({ name, status: response.status, retryAfter: response.headers.get('retry-after'), body });
        if (response.status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const acknowledged = () => answers.filter((answer) => answer.status === 201).length;
    await millisecondsUntil(async () => acknowledged() >= 100, 20_000);

    // Killed without blocking this process, so that writes are under way as the server dies.
    const answeredBeforeTheKill = answers.length;
    dying = true;
    for (const name of inFlight) caughtByTheKill.add(name);
    await clusters.primary.kill();
    dying = false;
    await new Promise((resolve) => setTimeout(resolve, 500));
    clusters.standby.promote();
    const afterPromotion = acknowledged();
    await millisecondsUntil(async () => acknowledged() >= afterPromotion + 50, 20_000);
    writing = false;
    await Promise.all(writers);

    const present = new Set(
      psql(clusters.standby.url, "select name from authors where name like 'Writer %'").split('\n'),
    );
    const written = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    const caught = answers.filter((answer) => caughtByTheKill.has(answer.name));
    reportFigure('writes under way while the primary was killed', caught.length, 'writes', `${WRITERS} writers`);
    reportFigure(
      'of those, answered 201',
      caught.filter((answer) => answer.status === 201).length,
      'writes',
      'on the standby before the kill',
    );
    reportFigure('writes answered 201', written.length, 'writes', 'each must be on the new primary');
    reportFigure('writes answered 503', refused.length, 'writes', 'Retry-After');
    reportFigure(
      'writes answered 503 yet committed',
      refused.filter((answer) => present.has(answer.name)).length,
      'writes',
      'the acknowledgement was lost with the primary',
    );
    expect(answers.length).toBeGreaterThan(answeredBeforeTheKill);
    expect(written.filter((answer) => !present.has(answer.name))).toEqual([]);
    for (const answer of refused) {
      expect(answer.status, answer.name).toBe(503);
      expect(Number(answer.retryAfter), answer.name).toBeGreaterThan(0);
      expect(answer.body, answer.name).toEqual({ error: { code: 503, message: expect.any(String) } });
    }
    expect(acknowledged()).toBeGreaterThanOrEqual(afterPromotion + 50);
  }, 90_000);
});
