/** @module `catalogue users add|list`: users made and listed without HTTP, each new one with a first token. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { asc } from 'drizzle-orm';
import { storePin } from '../db/queries/pins.js';
import { insertUser } from '../db/queries/users.js';
import { users } from '../db/schema/index.js';
import { checkValue, type InputField } from '../domain/input.js';
import { hashPin, PIN_MAX_LENGTH, PIN_MIN_LENGTH, pinProblem } from '../domain/pin.js';
import { type Role, roles, userInputFields } from '../domain/user.js';
import { UsageError } from './arguments.js';
import { print, withDatabase } from './database.js';
import { addToken } from './tokens.js';

export function addUsersCommands(program: Command): void {
  const group = program.command('users').description('add and list users');

  group
    .command('add')
    .description("add a user, with a token that signs them in (printed once, with the token's id)")
    .requiredOption('--name <name>', 'the name the catalogue shows', userName)
    .addOption(new Option('--role <role>', 'what they may do').choices(roles).default('member'))
    .option('--card <number>', 'their library card number (unique), to sign in with and scan at the desk', cardNumber)
    .option(
      '--pin <pin>',
      `the PIN they sign in with by card (${PIN_MIN_LENGTH}–${PIN_MAX_LENGTH} characters; other users of this machine may see a command's arguments: give a first PIN to change)`,
    )
    .option('--email <address>', 'where their notices are sent', email)
    .action(async (options: { name: string; role: Role; card?: string; pin?: string; email?: string }) => {
      // Checked here rather than by commander, whose message would repeat the PIN.
      const problem = options.pin === undefined ? undefined : pinProblem(options.pin);
      if (problem) throw new UsageError(`the PIN given with --pin ${problem}.`);
      // Hashed before the database is opened: scrypt's work holds no transaction open.
      const pinHash = options.pin === undefined ? undefined : await hashPin(options.pin);
      await withDatabase(async (db) => {
        const user = await db.transaction(async (tx) => {
          const added = await insertUser(tx, {
            name: options.name,
            role: options.role,
            ...(options.card !== undefined && { card_number: options.card }),
            ...(options.email !== undefined && { email: options.email }),
          });
          if (pinHash !== undefined) await storePin(tx, { userId: added.id, pinHash });
          return added;
        });
        const token = await addToken(db, user.id, 'cli');
        const card = user.card_number === null ? '' : `\ncard ${user.card_number}${pinHash ? ' (PIN set)' : ''}`;
        print(`user ${user.id} (${user.role}) ${user.name}${card}\ntoken ${token.secret}\ntoken id ${token.id}`);
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

/** A value of one of the user's fields, as `POST /users` would take it. */
function userField(name: 'name' | 'card_number' | 'email') {
  const field = userInputFields.find((each) => each.name === name) as InputField;
  return (value: string): string => {
    const problem = checkValue(field, value.normalize('NFC'));
    if (problem) throw new InvalidArgumentError(`It ${problem}.`);
    return value.normalize('NFC');
  };
}

const userName = userField('name');
const cardNumber = userField('card_number');
const email = userField('email');
