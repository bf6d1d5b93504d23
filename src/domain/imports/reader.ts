/**
 * @module What a reader of an import file is: bytes in as they stream, records (or refusals) out. Every
 * reader, CSV here or MARC in `protocols/marc/`, has this shape, and `imports/formats.ts` picks one by
 * media type.
 */
import type { ImportedRecord, Refusal } from './candidate.js';

export interface ReadOptions {
  /** The source of control numbers for records that name none (no 003; a CSV without `source`). */
  source?: string | undefined;
}

export type RecordReader = (
  body: AsyncIterable<Uint8Array>,
  options: ReadOptions,
) => AsyncIterable<ImportedRecord | Refusal>;
