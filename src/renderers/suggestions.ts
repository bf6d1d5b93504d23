/** @module Renders suggestions for a text typed so far: each a label and a link to its author or book. */
import type { RenderContext } from '../affordances/context.js';
import type { SuggestionRow } from '../db/queries/suggestions.js';
import type { Link, Resource } from '../hypermedia/model.js';

export function renderSuggestions(query: string, rows: readonly SuggestionRow[], ctx: RenderContext): Resource {
  const { uris } = ctx;
  return {
    kind: 'suggestions',
    state: { query },
    links: [{ rel: 'self', href: uris.suggestions(query) }],
    controls: [],
    items: rows.map((row) => {
      const link: Link =
        row.type === 'author'
          ? { rel: 'author', href: uris.author(row.id), title: row.label }
          : { rel: 'book', href: uris.book(row.id), title: row.label };
      return { kind: 'suggestion', state: { type: row.type, label: row.label }, links: [link], controls: [] };
    }),
  };
}
