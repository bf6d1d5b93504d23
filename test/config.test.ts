/** Configuration from the environment: defaults, choices, and clear refusals. */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, environment, loadConfig, settings } from '../src/config.js';

describe('loadConfig', () => {
  it('defaults to PGlite in ./data on port 3000 with the sample catalogue', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { kind: 'pglite', dataDir: './data' },
      workers: 1,
      seedSample: true,
      publicUrl: undefined,
      logRequests: true,
      access: {
        publicReads: true,
        loanDays: 14,
        maxActiveLoans: 10,
        holdDays: 7,
        maxHolds: 10,
        maxRenewals: 2,
        fineLimit: 1000,
      },
      adminToken: undefined,
      notices: { smtpUrl: undefined, from: 'catalogue@localhost', libraryName: 'The Library', dueDays: 3 },
      rateLimits: {
        search: { limit: 120, windowSeconds: 60 },
        stream: { limit: 20, windowSeconds: 60 },
        write: { limit: 120, windowSeconds: 60 },
      },
      pins: { attempts: 5, lockoutMinutes: 15 },
      changes: { retentionDays: 30, keepAliveSeconds: 15, maxStreams: 200 },
      connections: { idleSeconds: 5, headersSeconds: 20, requestSeconds: 30, maxConnections: 512 },
      oai: { repositoryId: undefined, adminEmail: undefined, pageSize: 100 },
      sip2: { port: undefined, idleSeconds: 300 },
      importMaxBytes: 256 * 1024 * 1024,
      currency: 'EUR',
      timeZone: 'UTC',
    });
  });

  it('CATALOGUE_SIP2_PORT: no SIP2 listener unless set; CATALOGUE_SIP2_IDLE_SECONDS bounded', () => {
    expect(loadConfig({ CATALOGUE_SIP2_PORT: '6001', CATALOGUE_SIP2_IDLE_SECONDS: '60' }).sip2).toEqual({
      port: 6001,
      idleSeconds: 60,
    });
    expect(() => loadConfig({ CATALOGUE_SIP2_PORT: '0' })).toThrow(/CATALOGUE_SIP2_PORT/);
    expect(() => loadConfig({ CATALOGUE_SIP2_IDLE_SECONDS: '0' })).toThrow(/CATALOGUE_SIP2_IDLE_SECONDS/);
  });

  it('CATALOGUE_FINE_LIMIT: minor units a borrower may owe and still borrow, 1000 by default, or none', () => {
    expect(loadConfig({}).access.fineLimit).toBe(1000);
    expect(loadConfig({ CATALOGUE_FINE_LIMIT: '0' }).access.fineLimit).toBe(0);
    expect(loadConfig({ CATALOGUE_FINE_LIMIT: 'none' }).access.fineLimit).toBe('none');
    for (const bad of ['-1', '2.5', 'lots', '2147483648']) {
      expect(() => loadConfig({ CATALOGUE_FINE_LIMIT: bad }), bad).toThrow(/CATALOGUE_FINE_LIMIT/);
    }
  });

  it('CATALOGUE_CURRENCY: an ISO 4217 code the platform knows, EUR by default', () => {
    expect(loadConfig({ CATALOGUE_CURRENCY: 'GBP' }).currency).toBe('GBP');
    expect(loadConfig({ CATALOGUE_CURRENCY: '' }).currency).toBe('EUR');
    for (const bad of ['eur', 'EURO', 'E1R', 'XYZ']) {
      expect(() => loadConfig({ CATALOGUE_CURRENCY: bad }), bad).toThrow(/CATALOGUE_CURRENCY/);
    }
  });

  it('CATALOGUE_TIME_ZONE: an IANA time zone the platform knows, UTC by default', () => {
    expect(loadConfig({ CATALOGUE_TIME_ZONE: 'Europe/Paris' }).timeZone).toBe('Europe/Paris');
    expect(loadConfig({ CATALOGUE_TIME_ZONE: '' }).timeZone).toBe('UTC');
    for (const bad of ['Mars/Olympus', 'Europe/', 'UTC+2', '+02:00x']) {
      expect(() => loadConfig({ CATALOGUE_TIME_ZONE: bad }), bad).toThrow(/CATALOGUE_TIME_ZONE/);
    }
  });

  it('CATALOGUE_IMPORT_MAX_BYTES: the largest file an import takes, checked', () => {
    expect(loadConfig({ CATALOGUE_IMPORT_MAX_BYTES: '1048576' }).importMaxBytes).toBe(1_048_576);
    expect(() => loadConfig({ CATALOGUE_IMPORT_MAX_BYTES: '12' })).toThrow(/CATALOGUE_IMPORT_MAX_BYTES/);
    expect(() => loadConfig({ CATALOGUE_IMPORT_MAX_BYTES: '1GB' })).toThrow(/CATALOGUE_IMPORT_MAX_BYTES/);
  });

  it('CATALOGUE_*_TIMEOUT_SECONDS and CATALOGUE_MAX_CONNECTIONS: the connection bounds, each checked', () => {
    expect(
      loadConfig({
        CATALOGUE_IDLE_TIMEOUT_SECONDS: '2',
        CATALOGUE_HEADERS_TIMEOUT_SECONDS: '10',
        CATALOGUE_REQUEST_TIMEOUT_SECONDS: '60',
        CATALOGUE_MAX_CONNECTIONS: '2000',
      }).connections,
    ).toEqual({ idleSeconds: 2, headersSeconds: 10, requestSeconds: 60, maxConnections: 2000 });
    expect(() => loadConfig({ CATALOGUE_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(/CATALOGUE_IDLE_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ CATALOGUE_MAX_CONNECTIONS: 'many' })).toThrow(/CATALOGUE_MAX_CONNECTIONS/);
    // Node refuses a headers timeout longer than the request's; so does the catalogue, naming both.
    expect(() => loadConfig({ CATALOGUE_HEADERS_TIMEOUT_SECONDS: '40' })).toThrow(
      /CATALOGUE_HEADERS_TIMEOUT_SECONDS \(40\) must not exceed CATALOGUE_REQUEST_TIMEOUT_SECONDS \(30\)/,
    );
  });

  it('CATALOGUE_CHANGES_*: the change feed’s retention, keep-alive and stream bound, each checked', () => {
    expect(
      loadConfig({
        CATALOGUE_CHANGES_RETENTION_DAYS: '7',
        CATALOGUE_CHANGES_KEEPALIVE_SECONDS: '5',
        CATALOGUE_CHANGES_MAX_STREAMS: '50',
      }).changes,
    ).toEqual({ retentionDays: 7, keepAliveSeconds: 5, maxStreams: 50 });
    expect(() => loadConfig({ CATALOGUE_CHANGES_RETENTION_DAYS: '0' })).toThrow(/CATALOGUE_CHANGES_RETENTION_DAYS/);
    expect(() => loadConfig({ CATALOGUE_CHANGES_MAX_STREAMS: 'lots' })).toThrow(/CATALOGUE_CHANGES_MAX_STREAMS/);
  });

  it('CATALOGUE_OAI_*: the OAI-PMH repository id, contact and page size, each checked', () => {
    expect(
      loadConfig({
        CATALOGUE_OAI_REPOSITORY_ID: 'catalogue.example.org',
        CATALOGUE_OAI_ADMIN_EMAIL: 'librarian@example.org',
        CATALOGUE_OAI_PAGE_SIZE: '250',
      }).oai,
    ).toEqual({ repositoryId: 'catalogue.example.org', adminEmail: 'librarian@example.org', pageSize: 250 });
    expect(() => loadConfig({ CATALOGUE_OAI_REPOSITORY_ID: 'catalogue:1' })).toThrow(/CATALOGUE_OAI_REPOSITORY_ID/);
    expect(() => loadConfig({ CATALOGUE_OAI_ADMIN_EMAIL: 'librarian' })).toThrow(/CATALOGUE_OAI_ADMIN_EMAIL/);
    expect(() => loadConfig({ CATALOGUE_OAI_PAGE_SIZE: '0' })).toThrow(/CATALOGUE_OAI_PAGE_SIZE/);
    expect(() => loadConfig({ CATALOGUE_OAI_PAGE_SIZE: '1001' })).toThrow(ConfigError);
  });

  it('CATALOGUE_RATE_LIMITS: off, or per-minute quotas for some kinds (the others keep their defaults)', () => {
    expect(loadConfig({ CATALOGUE_RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(loadConfig({ CATALOGUE_RATE_LIMITS: 'search=300, write=5' }).rateLimits).toEqual({
      search: { limit: 300, windowSeconds: 60 },
      stream: { limit: 20, windowSeconds: 60 },
      write: { limit: 5, windowSeconds: 60 },
    });
    for (const bad of ['on', 'search=0', 'reads=5', 'search=', 'search=1e3']) {
      expect(() => loadConfig({ CATALOGUE_RATE_LIMITS: bad }), bad).toThrow(/CATALOGUE_RATE_LIMITS/);
    }
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

  it('asks a DATABASE_URL with several hosts for a session that takes writes, unless it names one itself', () => {
    const database = (url: string) => loadConfig({ DATABASE_URL: url }).database;
    expect(database('postgres://u@h1:5432,h2:5433/db')).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write',
    });
    expect(database('postgres://u@h1,h2/db?sslmode=require')).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h1,h2/db?sslmode=require&target_session_attrs=read-write',
    });
    for (const url of [
      'postgres://u@h1,h2/db?target_session_attrs=primary',
      'postgres://u@h1,h2/db?target_session_attrs=read-write',
      'postgres://u@h1/db',
    ]) {
      expect(database(url)).toEqual({ kind: 'postgres', url });
    }
    for (const refused of ['standby', 'read-only', 'prefer-standby', 'any']) {
      expect(() => database(`postgres://u@h1,h2/db?target_session_attrs=${refused}`)).toThrow(
        /DATABASE_URL lists several hosts, so it needs target_session_attrs=read-write/,
      );
    }
  });

  it('CATALOGUE_WORKERS: a number of server processes, or auto for the available cores, checked', () => {
    expect(loadConfig({ CATALOGUE_WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ CATALOGUE_WORKERS: 'auto' }).workers).toBe(Math.min(availableParallelism(), 64));
    for (const bad of ['0', '65', 'two', '1.5', '-2']) {
      expect(() => loadConfig({ CATALOGUE_WORKERS: bad }), bad).toThrow(/CATALOGUE_WORKERS/);
    }
  });

  it('DATABASE_PREPARE=false and DATABASE_LISTEN_URL: a URL through a transaction pooler, a direct one for LISTEN', () => {
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u@pooler:6432/db',
        DATABASE_PREPARE: 'false',
        DATABASE_LISTEN_URL: 'postgres://u@primary:5432/db',
      }).database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://u@pooler:6432/db',
      prepare: false,
      listenUrl: 'postgres://u@primary:5432/db',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_PREPARE: 'true' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_PREPARE: 'no' })).toThrow(/DATABASE_PREPARE/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_LISTEN_URL: 'h:5432' })).toThrow(
      /DATABASE_LISTEN_URL/,
    );
  });

  it('DATABASE_REPLICA_URLS: streaming standbys of DATABASE_URL to read from, within CATALOGUE_REPLICA_MAX_LAG', () => {
    const primary = 'postgres://u@primary/db';
    expect(
      loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: ' postgres://u@r1/db , postgresql://u:p@r2:5433/db ' })
        .database,
    ).toEqual({
      kind: 'postgres',
      url: primary,
      replicas: { urls: ['postgres://u@r1/db', 'postgresql://u:p@r2:5433/db'], maxLagSeconds: 5 },
    });
    const lag = { DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'postgres://u@r1/db', CATALOGUE_REPLICA_MAX_LAG: '30' };
    expect(loadConfig(lag).database).toMatchObject({ replicas: { maxLagSeconds: 30 } });
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: ' ' }).database).toEqual({
      kind: 'postgres',
      url: primary,
    });
  });

  it.each([
    [{ DATABASE_URL: 'postgres://u@p/db', DATABASE_REPLICA_URLS: 'mysql://u:secret@r1/db' }, 'DATABASE_REPLICA_URLS'],
    [{ DATABASE_URL: 'postgres://u@p/db', DATABASE_REPLICA_URLS: 'postgres://u@r1/db,,' }, 'DATABASE_REPLICA_URLS'],
    [
      { DATABASE_URL: 'postgres://u@p/db', DATABASE_REPLICA_URLS: 'postgres://r/db,postgres://r/db' },
      'DATABASE_REPLICA_URLS',
    ],
    [{ DATABASE_REPLICA_URLS: 'postgres://u@r1/db' }, 'DATABASE_REPLICA_URLS'],
    [{ DATABASE_URL: 'postgres://u@p/db', CATALOGUE_REPLICA_MAX_LAG: '0' }, 'CATALOGUE_REPLICA_MAX_LAG'],
    [{ DATABASE_URL: 'postgres://u@p/db', CATALOGUE_REPLICA_MAX_LAG: '5s' }, 'CATALOGUE_REPLICA_MAX_LAG'],
  ])('refuses %o naming %s, and never echoes a standby\u2019s URL', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
    expect(() => loadConfig(env)).not.toThrow(/secret|r1/);
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
    [{ CATALOGUE_PUBLIC_READS: 'no' }, 'CATALOGUE_PUBLIC_READS'],
    [{ CATALOGUE_PUBLIC_READS: '0' }, 'CATALOGUE_PUBLIC_READS'],
    [{ CATALOGUE_PUBLIC_READS: 'FALSE' }, 'CATALOGUE_PUBLIC_READS'],
    [{ CATALOGUE_LOAN_DAYS: '0' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_LOAN_DAYS: '366' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_LOAN_DAYS: '-7' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_LOAN_DAYS: '7.5' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_LOAN_DAYS: 'fortnight' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_LOAN_DAYS: '1e1' }, 'CATALOGUE_LOAN_DAYS'],
    [{ CATALOGUE_MAX_ACTIVE_LOANS: '0' }, 'CATALOGUE_MAX_ACTIVE_LOANS'],
    [{ CATALOGUE_MAX_ACTIVE_LOANS: '10001' }, 'CATALOGUE_MAX_ACTIVE_LOANS'],
    [{ CATALOGUE_MAX_ACTIVE_LOANS: '-1' }, 'CATALOGUE_MAX_ACTIVE_LOANS'],
    [{ CATALOGUE_MAX_ACTIVE_LOANS: '2.5' }, 'CATALOGUE_MAX_ACTIVE_LOANS'],
    [{ CATALOGUE_MAX_ACTIVE_LOANS: 'many' }, 'CATALOGUE_MAX_ACTIVE_LOANS'],
    [{ CATALOGUE_HOLD_DAYS: '0' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_HOLD_DAYS: '366' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_HOLD_DAYS: '-3' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_HOLD_DAYS: '2.5' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_HOLD_DAYS: 'week' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_HOLD_DAYS: '1e1' }, 'CATALOGUE_HOLD_DAYS'],
    [{ CATALOGUE_MAX_HOLDS: '10001' }, 'CATALOGUE_MAX_HOLDS'],
    [{ CATALOGUE_MAX_HOLDS: '-1' }, 'CATALOGUE_MAX_HOLDS'],
    [{ CATALOGUE_MAX_HOLDS: '1.5' }, 'CATALOGUE_MAX_HOLDS'],
    [{ CATALOGUE_MAX_HOLDS: 'none' }, 'CATALOGUE_MAX_HOLDS'],
    [{ CATALOGUE_MAX_RENEWALS: '101' }, 'CATALOGUE_MAX_RENEWALS'],
    [{ CATALOGUE_MAX_RENEWALS: '-1' }, 'CATALOGUE_MAX_RENEWALS'],
    [{ CATALOGUE_MAX_RENEWALS: '0.5' }, 'CATALOGUE_MAX_RENEWALS'],
    [{ CATALOGUE_MAX_RENEWALS: 'twice' }, 'CATALOGUE_MAX_RENEWALS'],
  ])('refuses %o naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('refuses every whole number the same way: digits only, in its range, the value repeated', () => {
    const wholeNumbers = Object.entries(environment.shape).filter(([, schema]) =>
      /^\d+$/.test(settings.get(schema)?.default ?? ''),
    );
    expect(wholeNumbers.length).toBeGreaterThan(15);
    for (const [name] of wholeNumbers) {
      expect(() => loadConfig({ [name]: '1.5' }), name).toThrow(
        new RegExp(`^${name} must be a whole number from \\d+ to \\d+( or "\\w+")?, got "1\\.5"$`),
      );
    }
  });

  it('names every variable that cannot be used, not only the first', () => {
    expect(() => loadConfig({ CATALOGUE_SEED: 'lots', CATALOGUE_LOAN_DAYS: '0' })).toThrow(
      'CATALOGUE_SEED must be one of sample, none, got "lots"; CATALOGUE_LOAN_DAYS must be a whole number from 1 to 365, got "0"',
    );
  });

  describe('access policy', () => {
    it('CATALOGUE_PUBLIC_READS: "true" or "false", public by default', () => {
      expect(loadConfig({ CATALOGUE_PUBLIC_READS: 'false' }).access.publicReads).toBe(false);
      expect(loadConfig({ CATALOGUE_PUBLIC_READS: 'true' }).access.publicReads).toBe(true);
      expect(loadConfig({ CATALOGUE_PUBLIC_READS: ' false ' }).access.publicReads).toBe(false);
      expect(loadConfig({ CATALOGUE_PUBLIC_READS: '' }).access.publicReads).toBe(true);
      expect(loadConfig({}).access.publicReads).toBe(true);
    });

    it('CATALOGUE_LOAN_DAYS: a whole number of days from 1 to 365, 14 by default', () => {
      expect(loadConfig({ CATALOGUE_LOAN_DAYS: '7' }).access.loanDays).toBe(7);
      expect(loadConfig({ CATALOGUE_LOAN_DAYS: '1' }).access.loanDays).toBe(1);
      expect(loadConfig({ CATALOGUE_LOAN_DAYS: '365' }).access.loanDays).toBe(365);
      expect(loadConfig({ CATALOGUE_LOAN_DAYS: ' 21 ' }).access.loanDays).toBe(21);
      expect(loadConfig({ CATALOGUE_LOAN_DAYS: '' }).access.loanDays).toBe(14);
      expect(loadConfig({}).access.loanDays).toBe(14);
    });

    it('CATALOGUE_MAX_ACTIVE_LOANS: a whole number from 1 to 10000 (10 by default), or none for no limit', () => {
      expect(loadConfig({ CATALOGUE_MAX_ACTIVE_LOANS: '3' }).access.maxActiveLoans).toBe(3);
      expect(loadConfig({ CATALOGUE_MAX_ACTIVE_LOANS: '1' }).access.maxActiveLoans).toBe(1);
      expect(loadConfig({ CATALOGUE_MAX_ACTIVE_LOANS: '10000' }).access.maxActiveLoans).toBe(10_000);
      expect(loadConfig({ CATALOGUE_MAX_ACTIVE_LOANS: '' }).access.maxActiveLoans).toBe(10);
      expect(loadConfig({}).access.maxActiveLoans).toBe(10);
      expect(loadConfig({ CATALOGUE_MAX_ACTIVE_LOANS: 'none' }).access.maxActiveLoans).toBeUndefined();
    });

    it('CATALOGUE_HOLD_DAYS: a whole number of days from 1 to 365, 7 by default', () => {
      expect(loadConfig({ CATALOGUE_HOLD_DAYS: '3' }).access.holdDays).toBe(3);
      expect(loadConfig({ CATALOGUE_HOLD_DAYS: '1' }).access.holdDays).toBe(1);
      expect(loadConfig({ CATALOGUE_HOLD_DAYS: '365' }).access.holdDays).toBe(365);
      expect(loadConfig({ CATALOGUE_HOLD_DAYS: ' 10 ' }).access.holdDays).toBe(10);
      expect(loadConfig({ CATALOGUE_HOLD_DAYS: '' }).access.holdDays).toBe(7);
      expect(loadConfig({}).access.holdDays).toBe(7);
    });

    it('CATALOGUE_MAX_HOLDS: a whole number from 0 (no holds) to 10000, 10 by default', () => {
      expect(loadConfig({ CATALOGUE_MAX_HOLDS: '3' }).access.maxHolds).toBe(3);
      expect(loadConfig({ CATALOGUE_MAX_HOLDS: '0' }).access.maxHolds).toBe(0);
      expect(loadConfig({ CATALOGUE_MAX_HOLDS: '10000' }).access.maxHolds).toBe(10_000);
      expect(loadConfig({ CATALOGUE_MAX_HOLDS: '' }).access.maxHolds).toBe(10);
      expect(loadConfig({}).access.maxHolds).toBe(10);
    });

    it('CATALOGUE_MAX_RENEWALS: a whole number from 0 (no renewals) to 100, 2 by default', () => {
      expect(loadConfig({ CATALOGUE_MAX_RENEWALS: '5' }).access.maxRenewals).toBe(5);
      expect(loadConfig({ CATALOGUE_MAX_RENEWALS: '0' }).access.maxRenewals).toBe(0);
      expect(loadConfig({ CATALOGUE_MAX_RENEWALS: '100' }).access.maxRenewals).toBe(100);
      expect(loadConfig({ CATALOGUE_MAX_RENEWALS: '' }).access.maxRenewals).toBe(2);
      expect(loadConfig({}).access.maxRenewals).toBe(2);
    });

    it('the six settings combine', () => {
      const env = {
        CATALOGUE_PUBLIC_READS: 'false',
        CATALOGUE_LOAN_DAYS: '10',
        CATALOGUE_MAX_ACTIVE_LOANS: '5',
        CATALOGUE_HOLD_DAYS: '4',
        CATALOGUE_MAX_HOLDS: '3',
        CATALOGUE_MAX_RENEWALS: '1',
      };
      expect(loadConfig(env).access).toEqual({
        publicReads: false,
        loanDays: 10,
        maxActiveLoans: 5,
        holdDays: 4,
        maxHolds: 3,
        maxRenewals: 1,
        fineLimit: 1000,
      });
    });
  });

  describe('CATALOGUE_ADMIN_TOKEN', () => {
    it('is taken as given when it has at least 24 printable characters without spaces', () => {
      const token = 'Adm1n-Token_0123456789abc';
      expect(token).toHaveLength(25);
      expect(loadConfig({ CATALOGUE_ADMIN_TOKEN: token }).adminToken).toBe(token);
      const exactly24 = 'x'.repeat(24);
      expect(loadConfig({ CATALOGUE_ADMIN_TOKEN: exactly24 }).adminToken).toBe(exactly24);
      const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
      expect(loadConfig({ CATALOGUE_ADMIN_TOKEN: punctuation }).adminToken).toBe(punctuation);
    });

    it('is unset when absent or empty', () => {
      expect(loadConfig({}).adminToken).toBeUndefined();
      expect(loadConfig({ CATALOGUE_ADMIN_TOKEN: '' }).adminToken).toBeUndefined();
    });

    it.each([
      ['too short (23 characters)', 'x'.repeat(23)],
      ['containing a space', 'abcdefghijkl mnopqrstuvwxyz'],
      ['surrounded by spaces', `  ${'y'.repeat(24)}  `],
      ['containing a tab', `${'z'.repeat(12)}\t${'z'.repeat(12)}`],
      ['containing a newline', `${'n'.repeat(24)}\n`],
      ['containing a non-ASCII letter', `${'e'.repeat(23)}\u00e9`],
      ['only spaces', ' '.repeat(30)],
    ])('refuses a token %s, without repeating it', (_label, token) => {
      expect(() => loadConfig({ CATALOGUE_ADMIN_TOKEN: token })).toThrow(ConfigError);
      let message = '';
      try {
        loadConfig({ CATALOGUE_ADMIN_TOKEN: token });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('CATALOGUE_ADMIN_TOKEN');
      expect(message).toContain('at least 24 printable characters');
      // The refusal goes to the operator's terminal and logs: it must not echo the would-be secret.
      expect(message).not.toContain(token.trim() || token);
    });
  });
});

describe("README's table of settings", () => {
  /** Each variable's row, as the schema declares it: name, default (or what it is worked out from), meaning. */
  const rows = Object.entries(environment.shape).map(([name, schema]) => {
    const setting = settings.get(schema);
    if (!setting) throw new Error(`${name} has no description in the schema`);
    const fallback = setting.shown ?? (setting.default === undefined ? '—' : `\`${setting.default}\``);
    return `| \`${name}\` | ${fallback} | ${setting.meaning} |`;
  });

  it('lists every variable of the schema, in its order, with its default and meaning', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const header = '| variable | default | meaning |\n|---|---|---|\n';
    const start = readme.indexOf(header) + header.length;
    const table = readme.slice(start, readme.indexOf('\n\n', start)).split('\n');
    expect(table).toEqual(rows);
  });

  it('gives each default as the variable would be written: an empty environment is the defaults', () => {
    for (const [name, schema] of Object.entries(environment.shape)) {
      const fallback = settings.get(schema)?.default;
      if (fallback !== undefined) expect(loadConfig({ [name]: fallback }), name).toEqual(loadConfig({}));
    }
  });
});
