/**
 * @module `catalogue sip2 add-terminal|list-terminals|remove-terminal`: the SIP2 terminals that may sign in to
 * the listener (docs/protocols.md, "SIP2"). A terminal acts as a librarian: the one named, or one made for it.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { eq, or } from 'drizzle-orm';
import { deleteTerminal, insertTerminal, listTerminals } from '../db/queries/sip2.js';
import { insertUser } from '../db/queries/users.js';
import { branches } from '../db/schema/index.js';
import { hashPin, PIN_MAX_LENGTH, PIN_MIN_LENGTH, pinProblem } from '../domain/pin.js';
import { SIP2_CHARSETS, type Sip2Charset, sip2FieldProblem } from '../domain/sip2-terminal.js';
import { positiveWholeNumber, UsageError } from './arguments.js';
import { print, withDatabase } from './database.js';

interface AddOptions {
  login: string;
  password: string;
  branch: string;
  institution: string;
  charset: Sip2Charset;
  errorDetection: boolean;
  actsAs?: number;
}

export function addSip2Commands(program: Command): void {
  const group = program.command('sip2').description('SIP2 terminals: self-check machines and sorters');

  group
    .command('add-terminal')
    .description('add a terminal that signs in with a 93 login (CN and CO)')
    .requiredOption('--login <login>', 'the login user id it sends (CN)', sip2Field(false))
    .requiredOption(
      '--password <password>',
      `the password it sends (CO), ${PIN_MIN_LENGTH}–${PIN_MAX_LENGTH} characters; only its scrypt hash is kept`,
    )
    .requiredOption('--branch <code>', 'the branch it stands at, by code or id: loans are made and returned there')
    .option('--institution <id>', 'the institution id (AO) its answers carry', sip2Field(true), '')
    .addOption(
      new Option('--charset <name>', 'how its bytes are read and written').choices(SIP2_CHARSETS).default('utf-8'),
    )
    .option('--no-error-detection', 'its messages carry no sequence number (AY) or checksum (AZ)')
    .option(
      '--acts-as <user id>',
      'the librarian whose rights it uses; by default a librarian is made for it',
      positiveWholeNumber,
    )
    .action(async (options: AddOptions) => {
      // Checked here rather than by commander, whose message would repeat the password.
      const problem = pinProblem(options.password);
      if (problem) throw new UsageError(`the password given with --password ${problem}.`);
      const passwordHash = await hashPin(options.password);
      await withDatabase(async (db) => {
        const terminal = await db.transaction(async (tx) => {
          const code = options.branch.trim();
          const [branch] = await tx
            .select({ id: branches.id })
            .from(branches)
            .where(
              /^\d+$/.test(code) ? or(eq(branches.code, code), eq(branches.id, Number(code))) : eq(branches.code, code),
            );
          if (!branch) throw new UsageError(`--branch ${code} names no branch (give its code or id).`);
          const userId =
            options.actsAs ??
            (
              await insertUser(tx, {
                name: `SIP2 terminal ${options.login}`,
                role: 'librarian',
                home_branch_id: branch.id,
              })
            ).id;
          return insertTerminal(tx, {
            login: options.login,
            passwordHash,
            institutionId: options.institution,
            errorDetection: options.errorDetection,
            charset: options.charset,
            branchId: branch.id,
            userId,
          });
        });
        print(
          `terminal ${terminal.id} ${terminal.login} at branch ${terminal.branchId}, acting as user ${terminal.userId}` +
            `\n${terminal.charset}, error detection ${terminal.errorDetection ? 'on' : 'off'}`,
        );
      });
    });

  group
    .command('list-terminals')
    .description('list terminals: login, branch, acting user, character set, error detection')
    .action(async () => {
      await withDatabase(async (db) => {
        const terminals = await listTerminals(db);
        const line = (t: (typeof terminals)[number]) =>
          `${t.login}\tbranch ${t.branchId}\tuser ${t.userId}\t${t.charset}\t${t.errorDetection ? 'AY/AZ' : 'no AY/AZ'}`;
        print(terminals.map(line).join('\n') || '(no terminals)');
      });
    });

  group
    .command('remove-terminal')
    .description('remove a terminal: it can no longer sign in (connections signed in keep going until they close)')
    .requiredOption('--login <login>', 'its login')
    .action(async (options: { login: string }) => {
      await withDatabase(async (db) => {
        if (!(await deleteTerminal(db, { login: options.login }))) {
          throw new UsageError(`no terminal has the login ${options.login}.`);
        }
        print(`terminal ${options.login} removed`);
      });
    });
}

function sip2Field(allowEmpty: boolean) {
  return (value: string): string => {
    const problem = sip2FieldProblem(value, allowEmpty);
    if (problem) throw new InvalidArgumentError(`It ${problem}.`);
    return value;
  };
}
