/** @module Importing records: a file in, a report out (docs/records.md, "Import"). */
import type { Hono } from 'hono';
import { importRecords } from '../../affordances/imports.js';
import { InvalidInput } from '../../domain/errors.js';
import { RECORD_KEY_MAX_LENGTH } from '../../domain/imports/candidate.js';
import { paths } from '../../hypermedia/uris.js';
import { runImport } from '../../imports/run-import.js';
import { renderImportReport } from '../../renderers/import-report.js';
import type { AppEnv } from '../env.js';
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
}
