/** @module `catalogue users add|list`: users made and listed without HTTP, each new one with a first token. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { asc } from 'drizzle-orm';
import { insertUser } from '../db/queries/users.js';
import { users } from '../db/schema/index.js';
import { checkValue } from '../domain/input.js';
import { type Role, roles, userInputFields } from '../domain/user.js';
import { print, withDatabase } from './database.js';
import { addToken } from './tokens.js';

export function addUsersCommands(program: Command): void {
  const group = program.command('users').description('add and list users');

  group
    .command('add')
    .description("add a user, with a token that signs them in (printed once, with the token's id)")
    .requiredOption('--name <name>', 'the name the catalogue shows', userName)
    .addOption(new Option('--role <role>', 'what they may do').choices(roles).default('member'))
    .action(async (options: { name: string; role: Role }) => {
      await withDatabase(async (db) => {
        const user = await insertUser(db, { name: options.name, role: options.role });
        const token = await addToken(db, user.id, 'cli');
        print(`user ${user.id} (${user.role}) ${user.name}\ntoken ${token.secret}\ntoken id ${token.id}`);
      });
    });

  group
    .command('list')
    .description('list users: id, role and name, one a line')
    .action(async () => {
      await withDatabase(async (db) => {
        const rows = await db
          .select({ id: users.id, name: users.name, role: users.role })
          .from(users)
          .orderBy(asc(users.id));
        print(rows.map((u) => `${u.id}\t${u.role}\t${u.name}`).join('\n') || '(no users)');
      });
    });
}

/** A name as `POST /users` would take it. */
function userName(value: string): string {
  const problem = checkValue(userInputFields[0] as (typeof userInputFields)[0], value);
  if (problem) throw new InvalidArgumentError(`It ${problem}.`);
  return value;
}
