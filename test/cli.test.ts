/**
 * The operator CLI's command line: `--help` lists the commands and a command's options, and a wrong argument
 * ends in one line naming it on stderr, exit code 2, no stack trace, before the command runs.
 */
import { describe, expect, it } from 'vitest';
import { runScript } from './support/script.js';

/** A throw-away database: a command that wrongly reached it would still change nothing that lasts. */
const env = { CATALOGUE_DATA_DIR: 'memory://', CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' };
const runCli = (...args: string[]) => runScript('src/cli.ts', args, env);

describe('catalogue --help', () => {
  it('lists every command, on stdout, and exits 0', async () => {
    const run = await runCli('--help');
    expect(run.code, run.stderr).toBe(0);
    for (const command of ['users', 'tokens', 'generate', 'import', 'loans'])
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  }, 60_000);

  it("lists a command's options, with their choices and defaults", async () => {
    const run = await runCli('users', 'add', '--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: catalogue users add \[options\]/);
    expect(run.stdout).toMatch(/--name <name>/);
    expect(run.stdout).toMatch(/--role <role>.*\(choices: "librarian", "member", default:\s+"member"\)/s);
  }, 60_000);
});

describe('a wrong argument', () => {
  it.each([
    [
      ['users', 'add', '--name', 'Ada', '--rloe', 'member'],
      "catalogue: unknown option '--rloe' (Did you mean --role?)",
    ],
    [
      ['tokens', 'revoke', '--id', 'abc'],
      "catalogue: option '--id <id>' argument 'abc' is invalid. It must be a positive whole number.",
    ],
    [['generate'], "catalogue: required option '--books <n>' not specified"],
    [['users', 'ad'], "catalogue: unknown command 'ad' (Did you mean add?)"],
    [
      ['loans', 'declare-lost', '--at', 'tomorrow'],
      "catalogue: option '--at <instant>' argument 'tomorrow' is invalid. It must be an ISO 8601 instant with its offset, e.g. 2026-12-01T09:00:00Z.",
    ],
  ])(
    '%j: one line naming it, exit 2',
    async (args, message) => {
      const run = await runCli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`${message}\n`);
      expect(run.stdout).toBe('');
    },
    60_000,
  );
});
