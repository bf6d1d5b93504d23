/**
 * @module Operator commands without HTTP (users, tokens, generate, import) on the database the service is configured
 * for; its usage text lists them. On the embedded database one process at a time owns the data directory.
 */
import { createReadStream, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { generateCatalogue } from './db/generate.js';
import { prepareDatabase } from './db/migrate.js';
import { insertToken, listTokens } from './db/queries/tokens.js';
import { findUser, insertUser } from './db/queries/users.js';
import { tokens, users } from './db/schema/index.js';
import { RECORD_KEY_MAX_LENGTH } from './domain/imports/candidate.js';
import { importFilesDescribed } from './domain/imports/media-types.js';
import { type ImportReport, REPORT_ENTRIES_PER_OUTCOME } from './domain/imports/report.js';
import { checkValue } from './domain/input.js';
import { idOf } from './domain/limits.js';
import { hashTokenSecret, newTokenSecret } from './domain/token.js';
import { type Role, roles, userInputFields } from './domain/user.js';
import { formatOfFileName, formatOfMediaType, type ImportFormat, importMediaTypes } from './imports/formats.js';
import { runImport } from './imports/run-import.js';
import { progressBar } from './progress.js';

const usage = `usage:
  catalogue users add --name NAME [--role member|librarian]
  catalogue users list
  catalogue tokens add --user ID [--name LABEL]
  catalogue tokens list --user ID
  catalogue tokens revoke --id TOKEN_ID
  catalogue generate --books N [--authors M]   (M defaults to N/10)
  catalogue import FILE [--type MEDIA_TYPE] [--source CODE]
      FILE is ${importFilesDescribed}; --type names its media type when its name does not
      (${importMediaTypes.join(', ')}); --source is the MARC organization code of the
      control numbers of records that carry no 003`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      role: { type: 'string', default: 'member' },
      user: { type: 'string' },
      id: { type: 'string' },
      books: { type: 'string' },
      authors: { type: 'string' },
      type: { type: 'string' },
      source: { type: 'string' },
    },
  });
  // `import FILE`: the file is the command's argument, not a word of it.
  const file = positionals[0] === 'import' ? positionals[1] : undefined;
  const command = positionals[0] === 'import' && positionals.length === 2 ? 'import' : positionals.join(' ');
  const known = ['users add', 'users list', 'tokens add', 'tokens list', 'tokens revoke', 'generate', 'import'];
  if (!known.includes(command)) throw new UsageError(`unknown command "${command}"`);
  if (command === 'import' && file === undefined) throw new UsageError('import takes the FILE to import');
  const importing = command === 'import' ? importPlan(file as string, values) : undefined;

  // Arguments are checked before the database is touched, so a typo changes nothing.
  const checked = checkArguments(command, values);
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    const firstToken = await prepareDatabase(database, {
      seedSample: config.seedSample,
      adminToken: config.adminToken,
    });
    if (firstToken) print(`first start: a librarian was created; their token (shown only now):\ntoken ${firstToken}`);
    const { db } = database;
    switch (command) {
      case 'users add': {
        const user = await insertUser(db, { name: checked.name, role: checked.role });
        const token = await addToken(user.id, 'cli');
        print(`user ${user.id} (${user.role}) ${user.name}\ntoken ${token.secret}\ntoken id ${token.id}`);
        break;
      }
      case 'users list': {
        const rows = await db
          .select({ id: users.id, name: users.name, role: users.role })
          .from(users)
          .orderBy(asc(users.id));
        print(rows.map((u) => `${u.id}\t${u.role}\t${u.name}`).join('\n') || '(no users)');
        break;
      }
      case 'tokens add': {
        const userId = checked.id;
        if (!(await findUser(db, { id: userId }))) throw new UsageError(`no user ${userId}`);
        const token = await addToken(userId, values.name ?? 'cli');
        print(`token ${token.secret}\ntoken id ${token.id}`);
        break;
      }
      case 'tokens list': {
        const rows = await listTokens(db, { userId: checked.id });
        print(rows.map((t) => `${t.id}\t${t.created_at}\t${t.name}`).join('\n') || '(no tokens)');
        break;
      }
      case 'tokens revoke': {
        const id = checked.id;
        const deleted = await db.delete(tokens).where(eq(tokens.id, id)).returning({ id: tokens.id });
        if (deleted.length === 0) throw new UsageError(`no token ${id}`);
        print(`revoked token ${id}`);
        break;
      }
      case 'generate': {
        const plan = checked.generate as { books: number; authors?: number };
        const progress = progressBar(process.stderr);
        const made = await generateCatalogue(db, { ...plan, onProgress: progress.update });
        progress.done();
        print(`generated ${made.authors} authors and ${made.books} books`);
        break;
      }
      case 'import': {
        const plan = importing as ImportPlan;
        const progress = progressBar(process.stderr);
        const report = await runImport(db, createReadStream(plan.file), {
          format: plan.format,
          source: plan.source,
          onProgress: ({ bytes, records }) =>
            progress.update({ phase: `bytes, ${records.toLocaleString('en')} records`, done: bytes, total: plan.size }),
        });
        progress.done();
        print(importSummary(report));
        break;
      }
    }
  } finally {
    await database.close();
  }

  async function addToken(userId: number, name: string): Promise<{ id: number; secret: string }> {
    const secret = newTokenSecret();
    const token = await insertToken(database.db, { userId, name, hash: hashTokenSecret(secret) });
    return { id: token.id, secret };
  }
}

interface ImportPlan {
  file: string;
  size: number;
  format: ImportFormat;
  source: string | undefined;
}

/** The file, its format (by `--type`, else its name) and size, checked before the database is opened. */
function importPlan(file: string, values: CliValues): ImportPlan {
  const format = values.type !== undefined ? formatOfMediaType(values.type) : formatOfFileName(file);
  if (!format) {
    throw new UsageError(
      values.type !== undefined
        ? `--type must be one of ${importMediaTypes.join(', ')}`
        : `cannot tell the format of ${file} by its name: name it with --type (${importMediaTypes.join(', ')})`,
    );
  }
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw new UsageError(`${file} is not a file`);
    size = stats.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}`);
  }
  const source = values.source?.trim() || undefined;
  if (source !== undefined && source.length > RECORD_KEY_MAX_LENGTH) {
    throw new UsageError(`--source must be at most ${RECORD_KEY_MAX_LENGTH} characters`);
  }
  return { file, size, format, source };
}

/** The report as an operator reads it: the counts, then each record refused and why. */
function importSummary(report: ImportReport): string {
  const lines = [
    `${report.records} records: ${report.imported} imported, ${report.matched} matched, ${report.refused} refused; ` +
      `${report.authors_created} authors created`,
  ];
  for (const entry of report.entries) {
    if (entry.status === 'refused') lines.push(`record ${entry.number}: refused: ${entry.reason}`);
  }
  if (report.truncated) lines.push(`(the first ${REPORT_ENTRIES_PER_OUTCOME} of each outcome are listed)`);
  return lines.join('\n');
}

interface CliValues {
  name?: string;
  role?: string;
  user?: string;
  id?: string;
  books?: string;
  authors?: string;
  type?: string;
  source?: string;
}

function checkArguments(command: string, values: CliValues) {
  switch (command) {
    case 'generate':
      return {
        name: '',
        role: 'member' as Role,
        id: 0,
        generate: {
          books: wholeNumber('--books', values.books),
          ...(values.authors !== undefined && { authors: wholeNumber('--authors', values.authors) }),
        },
      };
    case 'users add': {
      const name = values.name ?? '';
      const problem = checkValue(userInputFields[0] as (typeof userInputFields)[0], name);
      if (problem) throw new UsageError(`--name ${problem}`);
      if (!roles.includes(values.role as Role)) throw new UsageError('--role must be member or librarian');
      return { name, role: values.role as Role, id: 0 };
    }
    case 'tokens add':
    case 'tokens list':
      return { name: '', role: 'member' as Role, id: wholeNumber('--user', values.user) };
    case 'tokens revoke':
      return { name: '', role: 'member' as Role, id: wholeNumber('--id', values.id) };
    default:
      return { name: '', role: 'member' as Role, id: 0 };
  }
}

function wholeNumber(flag: string, value: string | undefined): number {
  const id = idOf(value ?? '');
  if (id === undefined) throw new UsageError(`${flag} must be a positive whole number`);
  return id;
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`catalogue: ${error.message}\n${error instanceof UsageError ? usage : ''}\n`);
    process.exit(2);
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`catalogue: ${error.message}\n${usage}\n`);
    process.exit(2);
  }
  // A failed query's message is its SQL; what went wrong is the database's error, its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncause: ${error.cause.message}` : '';
  process.stderr.write(`catalogue: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
  process.exit(1);
});
