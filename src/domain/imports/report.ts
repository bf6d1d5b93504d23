/**
 * @module The report of an import: every record counted, and each one listed with its number and outcome
 * up to a bound per outcome, so that the report of a file of any size fits in bounded memory.
 */

/** Records listed per outcome; beyond it they are counted only (`truncated`). */
export const REPORT_ENTRIES_PER_OUTCOME = 1000;

export type RecordOutcome =
  /** A new book, and a new author if the name matched none. */
  | { number: number; status: 'imported'; book_id: number; title: string }
  /** A book the catalogue already holds (the same ISBN, or the same control number from the same source), left as it is. */
  | { number: number; status: 'matched'; book_id: number; title: string; matched_by: 'isbn' | 'control_number' }
  /** Not written, and why. */
  | { number: number; status: 'refused'; reason: string };

export interface ImportReport {
  /** Records read from the file, numbered from 1 in file order. */
  records: number;
  imported: number;
  matched: number;
  refused: number;
  /** Authors created because an imported record named someone the catalogue did not know. */
  authors_created: number;
  /** The records, in file order, at most `REPORT_ENTRIES_PER_OUTCOME` of each outcome. */
  entries: RecordOutcome[];
  /** Some records are counted but not listed. */
  truncated: boolean;
}

export function emptyReport(): ImportReport {
  return { records: 0, imported: 0, matched: 0, refused: 0, authors_created: 0, entries: [], truncated: false };
}

/** Counts an outcome, and lists it while its outcome has room. */
export function note(report: ImportReport, outcome: RecordOutcome): void {
  report[outcome.status] += 1;
  if (report[outcome.status] <= REPORT_ENTRIES_PER_OUTCOME) report.entries.push(outcome);
  else report.truncated = true;
}
