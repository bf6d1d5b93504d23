/**
 * @module Renders a bulk import's job (`GET /imports/{id}`): where it stands (`state`, the `phase` of its run,
 * `processed` of `total` records, `indexes_built` of `indexes_total`, the counts so far) and the records its
 * report lists, as the report renders them.
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { importRecords } from '../affordances/imports.js';
import type { ImportJob } from '../db/queries/import-jobs.js';
import type { ImportReport } from '../domain/imports/report.js';
import type { Resource } from '../hypermedia/model.js';
import { renderOutcome } from './import-report.js';

export function renderImportJob(job: ImportJob, report: ImportReport, ctx: RenderContext): Resource {
  return {
    kind: 'import-job',
    state: {
      id: job.id,
      state: job.state,
      phase: job.phase,
      processed: job.processed,
      total: job.total,
      imported: job.imported,
      matched: job.matched,
      refused: job.refused,
      authors_created: job.authors_created,
      indexes_built: job.indexes_built,
      indexes_total: job.indexes_total,
      truncated: report.truncated,
      runs: job.runs,
      media_type: job.media_type,
      source: job.source,
      file_sha256: job.file_sha256,
      error: job.error,
      started_at: job.started_at,
      updated_at: job.updated_at,
      finished_at: job.finished_at,
    },
    links: [
      { rel: 'self', href: ctx.uris.importJob(job.id) },
      { rel: 'collection', href: ctx.uris.firstPages.books, title: 'Books' },
    ],
    controls: offered(ctx, undefined, [importRecords]),
    items: report.entries.map((entry) => renderOutcome(entry, ctx)),
  };
}
