/**
 * @module Reading a CSV of books (RFC 4180, a header row naming the columns) with csv-parse, as it streams in:
 * the seed's fields, the record fields, and an author by id or by name.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { InvalidInput } from '../domain/errors.js';
import type { ImportedRecord, Refusal } from '../domain/imports/candidate.js';
import type { ReadOptions } from '../domain/imports/reader.js';

/**
 * The columns a CSV may have. `subjects` holds headings separated by `;` or `|`; `author` is a name (matched
 * like a MARC record's), `author_id` an existing author; `control_number` (with `source`, or the source the
 * importer names) lets a re-import match rows without an ISBN.
 */
export const CSV_COLUMNS = [
  'title',
  'publication_year',
  'author_id',
  'author',
  'isbn',
  'language',
  'subjects',
  'publisher',
  'control_number',
  'source',
] as const;

type Column = (typeof CSV_COLUMNS)[number];

/** Longest row read, in bytes: far more than a book's fields, and a bound on what one row may hold in memory. */
const MAX_ROW_BYTES = 64 * 1024;

export async function* readCsv(
  body: AsyncIterable<Uint8Array>,
  options: ReadOptions,
): AsyncGenerator<ImportedRecord | Refusal> {
  const parser = parse({
    bom: true,
    columns: checkHeader,
    skip_empty_lines: true,
    max_record_size: MAX_ROW_BYTES,
    encoding: 'utf8',
  });
  const rows = pipeline(Readable.from(body), parser, () => {});
  try {
    for await (const row of rows as AsyncIterable<Partial<Record<Column, string>>>) yield recordOf(row, options);
  } catch (error) {
    if (error instanceof InvalidInput) throw error;
    if (error instanceof CsvError) throw new InvalidInput(`the file is not a well-formed CSV: ${error.message}`);
    throw error;
  }
}

function checkHeader(header: string[]): string[] {
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new InvalidInput(
      `the CSV's header names unknown columns: ${unknown.join(', ')}; accepted columns: ${CSV_COLUMNS.join(', ')}`,
    );
  }
  for (const required of ['title', 'publication_year']) {
    if (!names.includes(required)) throw new InvalidInput(`the CSV's header must name a ${required} column`);
  }
  if (!names.includes('author') && !names.includes('author_id')) {
    throw new InvalidInput('the CSV\u2019s header must name an author column (a name) or author_id');
  }
  return names;
}

function recordOf(row: Partial<Record<Column, string>>, options: ReadOptions): ImportedRecord {
  const given = (column: Column) => {
    const value = row[column]?.trim();
    return value === '' ? undefined : value;
  };
  const controlNumber = given('control_number');
  const source = given('source') ?? options.source;
  const subjects = given('subjects')
    ?.split(/[;|]/)
    .map((heading) => heading.trim())
    .filter((heading) => heading !== '');
  return {
    title: given('title'),
    year: given('publication_year'),
    authorId: given('author_id'),
    authorName: given('author'),
    isbn: given('isbn'),
    language: given('language'),
    subjects,
    publisher: given('publisher'),
    key: controlNumber && source ? { source, controlNumber } : undefined,
  };
}
