/**
 * @module The operator CLI (`npm run catalogue -- …`): commands without HTTP on the database the service is
 * configured for, parsed by commander (`--help` at any level lists them). A wrong argument ends in one line
 * on stderr and exit code 2; on the embedded database one process at a time owns the data directory.
 */
import { Command, CommanderError } from 'commander';
import { oneLine, UsageError } from './cli/arguments.js';
import { addGenerateCommand } from './cli/generate.js';
import { addImportCommand } from './cli/import.js';
import { addLoansCommands } from './cli/loans.js';
import { addSip2Commands } from './cli/sip2.js';
import { addTokensCommands } from './cli/tokens.js';
import { addUsersCommands } from './cli/users.js';
import { ConfigError } from './config.js';

const program = new Command('catalogue')
  .description('Operator commands on the database the service is configured for (DATABASE_URL, else the embedded one).')
  // Set before the commands are added, which inherit both: errors are thrown to `failed`, printed as one line.
  .exitOverride()
  .configureOutput({ outputError: (message, write) => write(`${oneLine(message)}\n`) });
addUsersCommands(program);
addTokensCommands(program);
addGenerateCommand(program);
addImportCommand(program);
addLoansCommands(program);
addSip2Commands(program);

program.parseAsync().catch(failed);

function failed(error: unknown): never {
  // Commander has written its message (or the help asked for) already.
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`${oneLine(error.message)}\n`);
    process.exit(2);
  }
  // A failed query's message is its SQL; what went wrong is the database's error, its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncause: ${error.cause.message}` : '';
  process.stderr.write(`catalogue: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
  process.exit(1);
}
