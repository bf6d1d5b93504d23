/** @module `catalogue generate`: a synthetic catalogue of the documented shape, for load tests. */
import type { Command } from 'commander';
import { generateCatalogue } from '../db/generate.js';
import { progressBar } from '../progress.js';
import { positiveWholeNumber } from './arguments.js';
import { print, withDatabase } from './database.js';

export function addGenerateCommand(program: Command): void {
  program
    .command('generate')
    .description('add a synthetic catalogue of books and their authors, for load tests')
    .requiredOption('--books <n>', 'books to add', positiveWholeNumber)
    .option('--authors <m>', 'authors to add (default: a tenth of the books)', positiveWholeNumber)
    .action(async (options: { books: number; authors?: number }) => {
      await withDatabase(async (db) => {
        const progress = progressBar(process.stderr);
        const made = await generateCatalogue(db, { ...options, onProgress: progress.update });
        progress.done();
        print(`generated ${made.authors} authors and ${made.books} books`);
      });
    });
}
