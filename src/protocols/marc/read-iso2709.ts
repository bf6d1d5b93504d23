/**
 * @module Reading ISO 2709 (MARC 21's exchange format, "binary MARC"): the file is cut at each record
 * terminator and every record parsed by marcjs (`Iso2709Parser.parse`). A record that does not parse as one
 * is refused by itself, with its number; the records around it are read.
 */
import { Iso2709Parser } from 'marcjs';
import type { ImportedRecord, Refusal } from '../../domain/imports/candidate.js';
import type { ReadOptions } from '../../domain/imports/reader.js';
import type { MarcRecord } from './fields.js';
import { recordFromMarc } from './from-marc.js';

/** A leader's record length (00-04) and base address of data (12-16) are digits (MARC 21, "Leader"). */
const LEADER = /^\d{5}.{7}\d{5}.{7}$/s;

/** Ends every record (ISO 2709's record terminator, IS3). */
const END_OF_RECORD = 0x1d;

/** A record's length is five digits (leader 00-04): more bytes without a terminator are no record. */
const MAX_RECORD_BYTES = 99_999;

export async function* readIso2709(
  body: AsyncIterable<Uint8Array>,
  options: ReadOptions,
): AsyncGenerator<ImportedRecord | Refusal> {
  for await (const raw of rawRecords(body)) {
    if ('reason' in raw) {
      yield raw;
      continue;
    }
    const record = Iso2709Parser.parse(raw) as MarcRecord;
    const problem = unreadable(record);
    yield problem ? { reason: problem } : recordFromMarc(record, options);
  }
}

/**
 * The file's records, each the bytes before its terminator, however the file arrives in chunks. (marcjs's
 * own stream drops the start of a record spread over three chunks, and a last record with no terminator.)
 */
async function* rawRecords(body: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer | Refusal> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  for await (const chunk of body) {
    let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let end = rest.indexOf(END_OF_RECORD); end !== -1; end = rest.indexOf(END_OF_RECORD)) {
      if (!overlong) yield Buffer.concat([...pending, rest.subarray(0, end)]);
      pending = [];
      pendingBytes = 0;
      overlong = false;
      rest = rest.subarray(end + 1);
    }
    if (overlong || rest.length === 0) continue;
    pending.push(rest);
    pendingBytes += rest.length;
    if (pendingBytes > MAX_RECORD_BYTES) {
      // Refused once, then skipped to the next terminator: memory stays bounded whatever the file holds.
      yield { reason: `not an ISO 2709 record: more than ${MAX_RECORD_BYTES} bytes without a record terminator` };
      pending = [];
      pendingBytes = 0;
      overlong = true;
    }
  }
  // Line ends or padding after the last record are no record; anything else is one cut short.
  if (pending.some((bytes) => /\S/.test(bytes.toString('latin1')))) {
    yield { reason: 'not an ISO 2709 record: the file ends inside a record (no record terminator)' };
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
