/** @module Importing records: a file in, a report out (docs/records.md, "Import"). */
import type { Hono } from 'hono';
import { importRecords } from '../../affordances/imports.js';
import { findImportJob, importJobReport } from '../../db/queries/import-jobs.js';
import { InvalidInput, NotFound } from '../../domain/errors.js';
import { RECORD_KEY_MAX_LENGTH } from '../../domain/imports/candidate.js';
import { paths } from '../../hypermedia/uris.js';
import { runImport } from '../../imports/run-import.js';
import { renderImportJob } from '../../renderers/import-job.js';
import { renderImportReport } from '../../renderers/import-report.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { uploadOf } from '../upload.js';

export function importRoutes(app: Hono<AppEnv>, options: { maxBytes: number }): void {
  route(
    app,
    paths.imports,
    { POST: importRecords },
    {
      async POST(c) {
        const ctx = c.get('ctx');
        importRecords.authorize(ctx, undefined);
        const source = c.req.query('source')?.trim() || undefined;
        if (source !== undefined && source.length > RECORD_KEY_MAX_LENGTH) {
          throw new InvalidInput(`source must be at most ${RECORD_KEY_MAX_LENGTH} characters`, {
            source: `must be at most ${RECORD_KEY_MAX_LENGTH} characters`,
          });
        }
        const { format, body } = await uploadOf(c, options.maxBytes);
        const report = await runImport(c.get('database').db, body, { format, source });
        // 200, not 201: the report is no resource of its own, and the books it created are many (each
        // linked from it). Shown once, like any answer that is not kept: no redirect after the write.
        return send(c, renderImportReport(report, ctx), { showOnce: true });
      },
    },
  );

  route(
    app,
    paths.importJob,
    {
      GET: {
        summary:
          'A bulk import (`catalogue import FILE`): its state (running, done or failed), the records processed ' +
          'of the total, the counts so far, and the records its report lists',
        errors: [404],
      },
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        // Who may import may follow an import.
        importRecords.authorize(ctx, undefined);
        const id = idParam(c, 'id', 'import');
        const { db } = c.get('database');
        const job = await findImportJob(db, id);
        if (!job) throw new NotFound(`import ${id} not found`);
        return send(c, renderImportJob(job, await importJobReport(db, job), ctx));
      },
    },
  );
}
