/** `GET /health`: 200 while the database answers, 503 in the error shape when it does not. */
import { expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { json, openTestCatalogue } from './support/catalogue.js';
import type { ErrorDocument, HealthDocument } from './support/documents.js';

it('answers 200 while the database answers and 503 once it is gone', async () => {
  const t = await openTestCatalogue();
  try {
    const healthy = await t.request('/health');
    expect(healthy.status).toBe(200);
    expect(await json<HealthDocument>(healthy)).toEqual({ status: 'ok' });

    const closed = { ...t.database };
    const app = createApp({ database: closed });
    await t.database.close();
    const down = await app.request('/health');
    expect(down.status).toBe(503);
    expect(await json<ErrorDocument>(down)).toEqual({ error: { code: 503, message: 'the database does not answer' } });
  } finally {
    // The database is closed already; dropping a server database still has to happen.
    t.database.close = async () => {};
    await t.close();
  }
});
