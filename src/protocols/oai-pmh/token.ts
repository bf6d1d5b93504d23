/**
 * @module Resumption tokens (OAI-PMH 2.0, §3.5): a keyset cursor, the position after the last record
 * shown in (datestamp, book id) order, with the list's format and selection. The next page reads from that
 * position whatever was written since, at the cost of the first. Opaque to harvesters (base64url of JSON);
 * a token altered by hand can only name another position, and is read as strictly as any argument.
 */
import { z } from 'zod';
import { INT4_MAX } from '../../domain/limits.js';
import { isUtcTimestamp } from './dates.js';
import { OaiError } from './errors.js';

const timestamp = z.string().refine(isUtcTimestamp);

const tokenSchema = z
  .object({
    /** ListIdentifiers or ListRecords: a token continues the list it came from. */
    verb: z.enum(['ListIdentifiers', 'ListRecords']),
    prefix: z.string().regex(/^[A-Za-z0-9\-_.!~*'()]{1,100}$/),
    /** The selection's bounds: from (inclusive) and until (exclusive), as timestamps. */
    from: timestamp.optional(),
    until: timestamp.optional(),
    /** The last record shown: its datestamp, to the microsecond, and its book id. */
    after: z.tuple([timestamp, z.number().int().min(1).max(INT4_MAX)]),
    /** Records shown before the next page: its `cursor` attribute. */
    cursor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

export type ResumptionToken = z.infer<typeof tokenSchema>;

export function encodeResumptionToken(token: ResumptionToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** The token, or `badResumptionToken` for anything this catalogue did not issue. */
export function decodeResumptionToken(text: string): ResumptionToken {
  if (/^[A-Za-z0-9_-]{1,1500}$/.test(text)) {
    try {
      const parsed = tokenSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: refused below like any other token this catalogue did not issue.
    }
  }
  throw new OaiError('badResumptionToken', 'the resumption token is not one this repository issued');
}
