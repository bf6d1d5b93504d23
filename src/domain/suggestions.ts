/**
 * @module Suggestions as a person types: the one parameter, bounded as a search's is, and how many
 * suggestions of each kind are answered.
 */
import { InvalidInput } from './errors.js';
import { parseSearch, type QueryParams } from './listing.js';

/** Most suggestions answered. */
export const MAX_SUGGESTIONS = 10;
/** Most of them that are authors; they come first, and books take the rest. */
export const MAX_AUTHOR_SUGGESTIONS = 5;

/** The text typed so far (`query`): required, not blank, as long and with as many words as a search's. */
export function parseSuggestionQuery(params: QueryParams): string {
  for (const name of Object.keys(params)) {
    if (name !== 'query') {
      throw new InvalidInput(`unknown query parameter "${name}"; accepted: query`, { [name]: 'unknown parameter' });
    }
  }
  const values = params.query ?? [];
  if (values.length === 0) throw invalid('is required: the text typed so far');
  if (values.length > 1) throw invalid('"query" may be given only once');
  const [value = ''] = values;
  // PostgreSQL text cannot hold U+0000, so such a value could only fail in the database.
  if (value.includes('\u0000')) throw invalid('must not contain the NUL character (%00)');
  return parseSearch(value);
}

function invalid(problem: string): InvalidInput {
  return new InvalidInput(`query parameter "query" ${problem}`, { query: problem });
}
