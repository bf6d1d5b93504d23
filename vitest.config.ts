import { defineConfig } from 'vitest/config';

// Tests under test/postgres/ need a PostgreSQL server (several processes sharing one database), so they
// are collected only when DATABASE_URL names one; `npm test` on the embedded database leaves them out.
const include = ['test/*.test.ts', ...(process.env.DATABASE_URL ? ['test/postgres/**/*.test.ts'] : [])];

export default defineConfig({
  test: {
    include,
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
