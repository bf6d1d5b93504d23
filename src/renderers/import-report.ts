/**
 * @module Renders an import's report: its counts, and each record listed as a member (its number, its
 * outcome, and a link to the book it created or matched, titled with the book's title).
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { importRecords } from '../affordances/imports.js';
import type { ImportReport, RecordOutcome } from '../domain/imports/report.js';
import type { Resource } from '../hypermedia/model.js';

export function renderImportReport(report: ImportReport, ctx: RenderContext): Resource {
  const { entries, ...counts } = report;
  return {
    kind: 'import-report',
    state: counts,
    links: [{ rel: 'collection', href: ctx.uris.firstPages.books, title: 'Books' }],
    // Another file, from the report as from the collection.
    controls: offered(ctx, undefined, [importRecords]),
    items: entries.map((entry) => renderOutcome(entry, ctx)),
  };
}

export function renderOutcome(entry: RecordOutcome, ctx: RenderContext): Resource {
  if (entry.status === 'refused') return { kind: 'import-record', state: { ...entry }, links: [], controls: [] };
  const { title, ...state } = entry;
  return {
    kind: 'import-record',
    state,
    links: [{ rel: 'book', href: ctx.uris.book(entry.book_id), title }],
    controls: [],
  };
}
