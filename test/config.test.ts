/** Configuration from the environment: defaults, choices, and clear refusals. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('defaults to PGlite in ./data on port 3000 with the sample catalogue', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { kind: 'pglite', dataDir: './data' },
      seedSample: true,
      publicUrl: undefined,
      logRequests: true,
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set, and the data dir and options otherwise given', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
    expect(loadConfig({ CATALOGUE_DATA_DIR: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: 'memory://' });
    expect(loadConfig({ CATALOGUE_SEED: 'none' }).seedSample).toBe(false);
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(loadConfig({ CATALOGUE_PUBLIC_URL: 'https://example.org/catalogue/' }).publicUrl).toBe(
      'https://example.org/catalogue',
    );
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ CATALOGUE_SEED: 'lots' }, 'CATALOGUE_SEED'],
    [{ CATALOGUE_PUBLIC_URL: 'not a url' }, 'CATALOGUE_PUBLIC_URL'],
    [{ CATALOGUE_PUBLIC_URL: 'ftp://example.org' }, 'CATALOGUE_PUBLIC_URL'],
    [{ CATALOGUE_PUBLIC_URL: 'https://example.org/?x=1' }, 'CATALOGUE_PUBLIC_URL'],
    [{ CATALOGUE_LOG: 'verbose' }, 'CATALOGUE_LOG'],
  ])('refuses %o naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
