import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: the service under hostile, clumsy or numerous clients and a failing database,
 * each test printing the figures it measured (memory, latency under load, time to 503 and back). The heavy
 * tests under test/reliability/ run only here; the others are from the main suite, gathered so that one
 * command shows every defect of the reliability issue fixed. One file at a time: the figures are timings.
 */
const reliabilityOfMainSuite = [
  'test/data-dir-lock.test.ts',
  'test/start.test.ts',
  'test/fuzz.test.ts',
  'test/librarians.test.ts',
  'test/logs.test.ts',
  'test/rate-limits.test.ts',
  'test/session.test.ts',
  'test/text-input.test.ts',
  'test/token-cap.test.ts',
  'test/semaphore.test.ts',
];
const postgresOnly = [
  'test/postgres/outage.test.ts',
  'test/postgres/last-librarian-race.test.ts',
  // Clusters of their own: a primary and a streaming standby, stopped, paused, killed and promoted.
  'test/postgres/replicas.test.ts',
  'test/postgres/failover.test.ts',
  'test/postgres/synchronous-failover.test.ts',
];

export default defineConfig({
  test: {
    include: [
      'test/reliability/**/*.test.ts',
      ...reliabilityOfMainSuite,
      ...(process.env.DATABASE_URL ? postgresOnly : []),
    ],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
