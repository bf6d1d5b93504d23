/**
 * The lending rules matrix as a resource (issue 45), on PGlite and (with DATABASE_URL) PostgreSQL: the
 * migration's rules as documents, rules created, changed and deleted through their controls, every refusal
 * (a bad period or unit, a fraction of money, an unknown scope, a scope taken, the default rule unset,
 * rescoped or deleted) in the error shape with nothing changed, the listing's scope filters, who may see
 * it, and the controls in HAL-FORMS and the matrix in HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type CollectionDocument,
  controlOf,
  type HalDocument,
  type ListEntryDocument,
  type LoanRuleDocument,
  type Member,
  type PageDoc,
  present,
  submit,
} from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
let member: { id: number; token: string };
let staff: number;
let dvd: number;
let east: number;
beforeAll(async () => {
  t = await openTestCatalogue();
  member = await addUser(t, 'Rule Reader');
  const categories = await json<CollectionDocument<ListEntryDocument>>(await t.request('/patron-categories'));
  staff = present(
    categories.find((c) => c.code === 'staff'),
    'the staff category',
  ).id;
  dvd = (await json<ListEntryDocument>(await t.send('POST', '/item-types', { code: 'dvd', name: 'DVD' }))).id;
  east = (await json<ListEntryDocument>(await t.send('POST', '/branches', { code: 'east', name: 'East branch' }))).id;
});
afterAll(() => t.close());

async function rules(): Promise<CollectionDocument<LoanRuleDocument>> {
  return json<CollectionDocument<LoanRuleDocument>>(await t.request('/loan-rules?sort=id'));
}

async function defaultRule(): Promise<Member<LoanRuleDocument>> {
  return present(
    (await rules()).find((r) => r.patron_category_id === null && r.item_type_id === null && r.branch_id === null),
    'the default rule',
  );
}

describe('the migration\u2019s rules', () => {
  it('the default rule holds today\u2019s settings, from_settings, in the library\u2019s currency', async () => {
    const rule = await defaultRule();
    expect(rule).toMatchObject({
      loan_period: 14,
      loan_period_unit: 'days',
      renewals_allowed: 2,
      renewal_period: 14,
      renewal_period_unit: 'days',
      max_loans: 10,
      holds_allowed: true,
      fine_per_day: 0,
      grace_days: 0,
      fine_cap: 'none',
      lost_after_days: 'none',
      lost_charge: 0,
      lendable: true,
      floating: false,
      currency: 'EUR',
      from_settings: true,
    });
    const doc = await json<LoanRuleDocument>(await t.request(`/loan-rules/${rule.id}`));
    expect(doc.controls.delete).toBeUndefined();
    expect(Object.keys(doc.controls).sort()).toEqual(['edit', 'update']);
  });

  it('staff have a rule of their own that lifts the cap and leaves the rest unset', async () => {
    const [rule] = await json<CollectionDocument<LoanRuleDocument>>(
      await t.request(`/loan-rules?filter=patron_category_id:${staff}`),
    );
    expect(rule).toMatchObject({ item_type_id: null, branch_id: null, max_loans: 'none', loan_period: null });
    const doc = await json<LoanRuleDocument>(await t.request(`/loan-rules/${rule?.id}`));
    expect(linkHref(doc, 'patron_category')).toBe(`/patron-categories/${staff}`);
    expect(doc.links.find((l) => l.rel === 'patron_category')?.title).toBe('Staff');
    expect(linkHref(doc, 'branch')).toBeUndefined();
  });
});

describe('creating, changing and deleting a rule', () => {
  it('through its controls: created with a scope, changed with If-Match, deleted', async () => {
    const page = await json<PageDoc<LoanRuleDocument>>(await t.request('/loan-rules?page=1'));
    const create = controlOf(page, 'create');
    const response = await submit(t, create, {
      item_type_id: dvd,
      branch_id: east,
      loan_period: 7,
      fine_per_day: 25,
      fine_cap: 500,
      max_loans: 'none',
    });
    expect(response.status).toBe(201);
    const rule = await json<LoanRuleDocument>(response);
    expect(response.headers.get('location')).toBe(`/loan-rules/${rule.id}`);
    expect(rule).toMatchObject({
      patron_category_id: null,
      item_type_id: dvd,
      branch_id: east,
      loan_period: 7,
      // A period without a unit is in days.
      loan_period_unit: 'days',
      renewals_allowed: null,
      fine_per_day: 25,
      fine_cap: 500,
      max_loans: 'none',
      from_settings: false,
    });
    expect(linkHref(rule, 'item_type')).toBe(`/item-types/${dvd}`);
    expect(linkHref(rule, 'branch')).toBe(`/branches/${east}`);

    const read = await t.request(`/loan-rules/${rule.id}`);
    const etag = read.headers.get('etag') as string;
    const edited = await t.send(
      'PATCH',
      `/loan-rules/${rule.id}`,
      { loan_period: 48, loan_period_unit: 'hours', max_loans: 3, fine_cap: null },
      { 'If-Match': etag },
    );
    expect(edited.status).toBe(200);
    expect(await json<LoanRuleDocument>(edited)).toMatchObject({
      loan_period: 48,
      loan_period_unit: 'hours',
      max_loans: 3,
      fine_cap: null,
    });
    await expectError(await t.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: 1 }, { 'If-Match': etag }), 412);
    // Unsetting a period takes its unit with it.
    const unset = await json<LoanRuleDocument>(await t.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: null }));
    expect(unset).toMatchObject({ loan_period: null, loan_period_unit: null });

    const doc = await json<LoanRuleDocument>(await t.request(`/loan-rules/${rule.id}`));
    expect((await submit(t, controlOf(doc, 'delete'))).status).toBe(204);
    await expectError(await t.request(`/loan-rules/${rule.id}`), 404);
  });

  it('changing the default rule makes it the library\u2019s own (from_settings false)', async () => {
    const rule = await defaultRule();
    const changed = await json<LoanRuleDocument>(await t.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: 21 }));
    expect(changed).toMatchObject({ loan_period: 21, from_settings: false, renewals_allowed: 2 });
    await t.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: 14 });
  });
});

describe('refusals, each changing nothing', () => {
  it('bad values of a new rule: 400 or 422 naming the field', async () => {
    const before = await rules();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ item_type_id: dvd, loan_period: 0 }, 400, 'loan_period'],
      [{ item_type_id: dvd, loan_period: -3 }, 400, 'loan_period'],
      [{ item_type_id: dvd, renewal_period: 0 }, 400, 'renewal_period'],
      [{ item_type_id: dvd, fine_per_day: 0.5 }, 400, 'fine_per_day'],
      [{ item_type_id: dvd, fine_per_day: '25' }, 400, 'fine_per_day'],
      [{ item_type_id: dvd, lost_charge: -1 }, 400, 'lost_charge'],
      [{ item_type_id: dvd, max_loans: 2.5 }, 400, 'max_loans'],
      [{ item_type_id: dvd, max_loans: 'lots' }, 400, 'max_loans'],
      [{ item_type_id: dvd, renewals_allowed: 1.5 }, 400, 'renewals_allowed'],
      [{ item_type_id: dvd, loan_period_unit: 'weeks', loan_period: 2 }, 400, 'loan_period_unit'],
      [{ item_type_id: dvd, colour: 'red' }, 400, 'colour'],
      [{ item_type_id: dvd, loan_period_unit: 'hours' }, 422, 'loan_period_unit'],
      [{ item_type_id: 999999 }, 422, 'item_type_id'],
      [{ patron_category_id: 999999 }, 422, 'patron_category_id'],
      [{ branch_id: 999999 }, 422, 'branch_id'],
    ];
    for (const [body, status, field] of cases) {
      await expectError(await t.send('POST', '/loan-rules', body), status, {
        details: [field],
        what: JSON.stringify(body),
      });
    }
    expect(await rules()).toEqual(before);
  });

  it('a scope that has a rule already is 409', async () => {
    await t.send('POST', '/loan-rules', { patron_category_id: staff, item_type_id: dvd, loan_period: 3 });
    const before = await rules();
    await expectError(await t.send('POST', '/loan-rules', { patron_category_id: staff, item_type_id: dvd }), 409, {
      message: /exists already/,
    });
    // any × any × any is a scope too.
    const copy = { ...(await defaultRule()) };
    const values = Object.fromEntries(
      Object.entries(copy).filter(([name]) => !['id', 'links', 'controls', 'currency', 'from_settings'].includes(name)),
    );
    await expectError(await t.send('POST', '/loan-rules', values), 409);
    // Moving a rule onto a scope taken is refused too.
    const other = await json<LoanRuleDocument>(
      await t.send('POST', '/loan-rules', { patron_category_id: staff, branch_id: east }),
    );
    await expectError(await t.send('PATCH', `/loan-rules/${other.id}`, { item_type_id: dvd, branch_id: null }), 409);
    expect((await rules()).length).toBe(before.length + 1);
  });

  it('the default rule: no value unset (422), its scope kept (422), never deleted (409)', async () => {
    const rule = await defaultRule();
    const etag = (await t.request(`/loan-rules/${rule.id}`)).headers.get('etag');
    await expectError(await t.send('PATCH', `/loan-rules/${rule.id}`, { fine_per_day: null }), 422, {
      details: ['fine_per_day'],
    });
    await expectError(await t.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: null }), 422);
    await expectError(await t.send('PATCH', `/loan-rules/${rule.id}`, { branch_id: east }), 422, {
      details: ['branch_id'],
    });
    await expectError(await t.send('DELETE', `/loan-rules/${rule.id}`, undefined), 409, { message: /any/ });
    expect((await t.request(`/loan-rules/${rule.id}`)).headers.get('etag')).toBe(etag);
  });

  it('a change with a fraction or a unit without its period changes nothing', async () => {
    const made = await json<LoanRuleDocument>(
      await t.send('POST', '/loan-rules', { item_type_id: dvd, branch_id: east, grace_days: 2 }),
    );
    await expectError(await t.send('PATCH', `/loan-rules/${made.id}`, { grace_days: 1.25 }), 400, {
      details: ['grace_days'],
    });
    await expectError(await t.send('PATCH', `/loan-rules/${made.id}`, { renewal_period_unit: 'hours' }), 422, {
      details: ['renewal_period_unit'],
    });
    expect(await json<LoanRuleDocument>(await t.request(`/loan-rules/${made.id}`))).toMatchObject({
      grace_days: 2,
      renewal_period_unit: null,
    });
  });
});

describe('the listing', () => {
  it('filters by scope, an id or any, and sorts by id', async () => {
    const forEast = await json<CollectionDocument<LoanRuleDocument>>(
      await t.request(`/loan-rules?filter=branch_id:${east}`),
    );
    expect(forEast.length).toBeGreaterThan(0);
    expect(forEast.every((r) => r.branch_id === east)).toBe(true);
    const anyBranch = await json<CollectionDocument<LoanRuleDocument>>(
      await t.request('/loan-rules?filter=branch_id:any&filter=item_type_id:any'),
    );
    expect(anyBranch.every((r) => r.branch_id === null && r.item_type_id === null)).toBe(true);
    expect(anyBranch.length).toBeGreaterThanOrEqual(2);
    const newest = await json<CollectionDocument<LoanRuleDocument>>(await t.request('/loan-rules?sort=-id'));
    expect(newest.map((r) => r.id)).toEqual([...newest.map((r) => r.id)].sort((a, b) => b - a));
    await expectError(await t.request('/loan-rules?filter=branch_id:everywhere'), 400);
  });
});

describe('who may see the rules', () => {
  it('anonymous callers 401, members 403, for reads and writes alike', async () => {
    const rule = await defaultRule();
    const reader = t.as(member.token);
    await expectError(await t.anonymous.request('/loan-rules'), 401);
    await expectError(await t.anonymous.request(`/loan-rules/${rule.id}`), 401);
    await expectError(await reader.request('/loan-rules'), 403);
    await expectError(await reader.request(`/loan-rules/${rule.id}`), 403);
    await expectError(await reader.send('POST', '/loan-rules', { item_type_id: dvd }), 403);
    await expectError(await reader.send('PATCH', `/loan-rules/${rule.id}`, { loan_period: 99 }), 403);
    await expectError(await reader.send('DELETE', `/loan-rules/${rule.id}`, undefined), 403);
    expect((await defaultRule()).loan_period).toBe(14);
  });
});

describe('in every format', () => {
  it('HAL-FORMS: the create template has typed fields, the scope offering any and the lists', async () => {
    const page = await json<HalDocument>(
      await t.request('/loan-rules?page=1', { headers: { Accept: 'application/prs.hal-forms+json' } }),
    );
    const template = present(page._templates?.create, 'the create template');
    expect(template.method).toBe('POST');
    const property = (name: string) => template.properties.find((p) => p.name === name);
    expect(property('loan_period')).toMatchObject({ type: 'number' });
    const inline = present(property('branch_id')?.options?.inline, 'the branch_id choices') as {
      prompt: string;
      value: string;
    }[];
    expect(inline[0]).toEqual({ prompt: 'any', value: '' });
    expect(inline.map((o) => o.prompt)).toEqual(expect.arrayContaining(['East branch', 'Main library']));
    expect(property('loan_period_unit')?.options?.inline).toEqual(['days', 'hours']);
  });

  it('HTML: the matrix as a table, scope by name or "any", unset as "next rule", none as "no limit"', async () => {
    const response = await t.request('/loan-rules?page=1', { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<table class="loan-rules">');
    expect(html).toMatch(
      /<td data-field="patron_category_id"><a rel="patron_category" href="\/patron-categories\/\d+">Staff<\/a><\/td>/,
    );
    expect(html).toContain('<td data-field="branch_id">any</td>');
    expect(html).toContain('<td data-field="loan_period">\u2014 next rule</td>');
    expect(html).toContain('<td data-field="max_loans">no limit</td>');
    expect(html).toMatch(/<form rel="create"[^>]*action="\/loan-rules"/);
    expect((html.match(/<tr>/g) ?? []).length - 1).toBe((await rules()).length);
  });
});
