/** @module Suggestions as a person types: authors and books for the text so far. */
import type { Hono } from 'hono';
import type { Operation } from '../../affordances/operation.js';
import { findSuggestions } from '../../db/queries/suggestions.js';
import { MAX_QUERY_PARAM_LENGTH, MAX_SEARCH_WORDS } from '../../domain/limits.js';
import { MAX_AUTHOR_SUGGESTIONS, MAX_SUGGESTIONS, parseSuggestionQuery } from '../../domain/suggestions.js';
import { paths } from '../../hypermedia/uris.js';
import { renderSuggestions } from '../../renderers/suggestions.js';
import type { AppEnv } from '../env.js';
import { queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';

const suggest: Operation = {
  summary: `Up to ${MAX_SUGGESTIONS} authors and books a text typed so far may mean, authors first`,
  parameters: [
    {
      name: 'query',
      required: true,
      description:
        `Required: the text typed so far, up to ${MAX_SEARCH_WORDS} words. Case and accents are ignored, ` +
        'earlier words are corrected as in a search, the last is the start of a word (a typo forgiven from ' +
        'its fourth letter on).',
      schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_PARAM_LENGTH },
    },
  ],
  errors: [400],
};

export function suggestionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.suggestions,
    { GET: suggest },
    {
      async GET(c) {
        const text = parseSuggestionQuery(queryParams(c));
        // A suggestion is a search: every keystroke spends from the caller's search quota.
        await c.get('rateLimiter')?.spend(c, 'search');
        const database = c.get('database');
        const rows = await database.listingReads.run(() =>
          findSuggestions(database.db, { text, total: MAX_SUGGESTIONS, authors: MAX_AUTHOR_SUGGESTIONS }),
        );
        return send(c, renderSuggestions(text, rows, c.get('ctx')));
      },
    },
  );
}
