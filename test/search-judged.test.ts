/**
 * The judged patron searches (test/search/judgements.ts) against the sample catalogue: the book a person
 * means is among the first three results for at least 90% of them. The figure is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgements } from './search/judgements.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { BookDocument, PageDoc } from './support/documents.js';

let catalogue: TestCatalogue;

beforeAll(async () => {
  catalogue = await openTestCatalogue({ seedSample: true });
});

afterAll(async () => {
  await catalogue?.close();
});

describe('judged patron searches on the sample catalogue', () => {
  it('find the book meant among the first three results for at least 90% of the searches', async () => {
    expect(judgements.length).toBeGreaterThanOrEqual(40);
    const misses: string[] = [];
    for (const [query, meant] of judgements) {
      const response = await catalogue.anonymous.request(`/books?${new URLSearchParams({ query, per_page: '3' })}`);
      expect(response.status).toBe(200);
      const titles = (await json<PageDoc<BookDocument>>(response)).data.map((book) => book.title);
      if (!titles.includes(meant)) misses.push(`${query} → ${titles.join(' | ') || 'nothing'} (meant ${meant})`);
    }
    const found = judgements.length - misses.length;
    const share = found / judgements.length;
    console.log(
      `judged searches (${catalogue.kind}): ${found} of ${judgements.length} (${(share * 100).toFixed(1)}%) have the book meant in the first three` +
        misses.map((miss) => `\n  missed: ${miss}`).join(''),
    );
    expect(share).toBeGreaterThanOrEqual(0.9);
  });
});
