/**
 * @module Reading ISO 2709 (MARC 21's exchange format, "binary MARC") with marcjs's streaming parser. A
 * record that does not parse as one is refused by itself, with its number; the records around it are read.
 */
import { pipeline, Readable } from 'node:stream';
import { Iso2709Parser } from 'marcjs';
import type { ImportedRecord, Refusal } from '../domain/imports/candidate.js';
import { recordFromMarc } from '../domain/imports/from-marc.js';
import type { MarcRecord } from '../domain/imports/marc-record.js';
import type { ReadOptions } from './formats.js';

/** A leader's record length (00-04) and base address of data (12-16) are digits (MARC 21, "Leader"). */
const LEADER = /^\d{5}.{7}\d{5}.{7}$/s;

export async function* readIso2709(
  body: AsyncIterable<Uint8Array>,
  options: ReadOptions,
): AsyncGenerator<ImportedRecord | Refusal> {
  const records = pipeline(Readable.from(body), new Iso2709Parser(), () => {});
  for await (const record of records as AsyncIterable<MarcRecord>) {
    const problem = unreadable(record);
    yield problem ? { reason: problem } : recordFromMarc(record, options);
  }
}

/** Why a record marcjs handed over is none, or `undefined` when it reads as one. */
function unreadable(record: MarcRecord): string | undefined {
  if (!LEADER.test(record.leader) || record.fields.length === 0) {
    return 'not an ISO 2709 record: its leader or directory does not parse';
  }
  if (record.fields.some((field) => !/^[0-9A-Za-z]{3}$/.test(field[0] ?? ''))) {
    return 'not an ISO 2709 record: its directory names a tag that is not three characters';
  }
  // Leader/09 `a` is UCS/Unicode; anything else is MARC-8, whose non-ASCII characters marcjs reads as UTF-8.
  if (record.leader[9] !== 'a' && record.fields.some((field) => field.some((part) => /[^\p{ASCII}]/u.test(part)))) {
    return 'a MARC-8 record (leader/09 is not "a") with non-ASCII text: only UTF-8 records are read';
  }
  return undefined;
}
