/**
 * The JSON format's shape: a document and each streamed member are, byte for byte, what stringifying the
 * seed's shape of them writes (state, `links` as an array, `controls` keyed by name), whatever they hold.
 */
import { describe, expect, it } from 'vitest';
import { inputFields } from '../src/affordances/fields.js';
import type { InputField } from '../src/domain/input.js';
import { jsonFormat } from '../src/formats/json.js';
import type { Field, Resource } from '../src/hypermedia/model.js';

async function streamed(items: Resource[][]): Promise<string> {
  let text = '';
  for await (const chunk of jsonFormat.stream({ kind: 'book-list', links: [], controls: [], items: batches(items) })) {
    text += chunk;
  }
  return text;
}

async function* batches(items: Resource[][]) {
  yield* items;
}

const plain: Resource = {
  kind: 'book',
  state: { id: 7, title: 'Quotes " and \\ and \u2028 and é', due_at: null, skipped: undefined },
  links: [
    { rel: 'self', href: '/books/7' },
    { rel: 'collection', href: '/books?page=1&per_page=20' },
  ],
  controls: [],
};
const titled: Resource = {
  kind: 'author',
  state: {},
  links: [
    { rel: 'books', href: '/authors/1/books', title: 'Books by "Ann"' },
    { rel: 'search', href: '/books{?query}', templated: true },
    { rel: 'self', href: '/authors/1', title: '' },
  ],
  controls: [{ name: 'delete', href: '/authors/1', method: 'DELETE', title: 'Delete', fields: [] }],
};
const clashing: Resource = {
  kind: 'book',
  state: { links: 'a state field so named', id: 1 },
  links: [{ rel: 'self', href: '/books/1' }],
  controls: [],
};
const withoutLinks: Resource = { kind: 'book', state: { id: 2 }, links: [], controls: [] };

describe('the JSON stream', () => {
  it('writes each member as JSON.stringify writes it, across batches', async () => {
    const expected = [
      { id: 7, title: plain.state.title, due_at: null, links: plain.links },
      {
        links: [
          { rel: 'books', href: '/authors/1/books', title: 'Books by "Ann"' },
          { rel: 'search', href: '/books{?query}', templated: true },
          { rel: 'self', href: '/authors/1' },
        ],
        controls: { delete: { href: '/authors/1', method: 'DELETE', title: 'Delete', fields: [] } },
      },
      { links: [{ rel: 'self', href: '/books/1' }], id: 1 },
      { id: 2, links: [] },
    ];
    expect(await streamed([[plain, titled], [clashing], [], [withoutLinks]])).toBe(JSON.stringify(expected));
    expect(await streamed([])).toBe('[]');
  });

  it('writes a member whose state came as JSON text as it writes the same member with its state', async () => {
    const asText = (resource: Resource): Resource => ({
      ...resource,
      state: {},
      stateJson: JSON.stringify(resource.state),
    });
    const escaped: Resource = {
      ...plain,
      links: [
        { rel: 'author', href: '/authors/2', title: 'Back\\slash, bell \u0007, line \u2028, \u{1d11e}' },
        { rel: 'self', href: '/books/7', templated: false, title: '' },
      ],
    };
    const members = [plain, titled, escaped, withoutLinks, { ...withoutLinks, state: {} }];
    expect(await streamed([members.map(asText), [plain]])).toBe(await streamed([members, [plain]]));
  });
});

describe('the JSON document', () => {
  const linksOf = (resource: Resource) =>
    resource.links.map(({ rel, href, title, templated }) => ({
      rel,
      href,
      ...(title && { title }),
      ...(templated && { templated }),
    }));
  const controlsOf = (resource: Resource) => {
    const controls: Record<string, unknown> = {};
    for (const { name, href, method, title, contentType, fields } of resource.controls) {
      controls[name] = { href, method, ...(title && { title }), ...(contentType && { contentType }), fields };
    }
    return controls;
  };
  // A member shows controls only where it has any; a document always.
  const member = (resource: Resource) => ({
    ...resource.state,
    links: linksOf(resource),
    ...(resource.controls.length > 0 && { controls: controlsOf(resource) }),
  });
  const document = (resource: Resource) => {
    const body: Record<string, unknown> = {};
    if (resource.items) body.data = resource.items.map(member);
    Object.assign(body, resource.state);
    body.links = linksOf(resource);
    body.controls = controlsOf(resource);
    return body;
  };
  // The fields of a change, offered under two names; fields that never change, frozen through and through.
  const shared = [
    { name: 'title', type: 'string' as const, required: false, maxLength: 500, value: 'Quotes " and \u2028' },
    {
      name: 'author_id',
      type: 'integer' as const,
      required: false,
      options: { href: '/authors', valueField: 'id', promptField: 'name' },
    },
  ];
  const fixed = Object.freeze([Object.freeze({ name: 'note', type: 'string' as const, required: true })]) as Field[];
  const book: Resource = {
    kind: 'book',
    state: { id: 7, title: 'A "quoted" title', skipped: undefined, due_at: null },
    links: [
      { rel: 'self', href: '/books/7' },
      { rel: 'author', href: '/authors/1', title: 'Ann' },
    ],
    controls: [
      {
        name: 'update',
        href: '/books/7',
        method: 'PUT',
        title: 'Update',
        contentType: 'application/json',
        fields: shared,
      },
      {
        name: 'edit',
        href: '/books/7',
        method: 'PATCH',
        title: 'Edit',
        contentType: 'application/json',
        fields: shared,
      },
      { name: 'borrow', href: '/books/7/borrow', method: 'POST', fields: fixed },
      { name: 'delete', href: '/books/7', method: 'DELETE', fields: [] },
    ],
  };

  it('is what stringifying the document writes, whatever the resource holds', () => {
    const page: Resource = {
      kind: 'book-page',
      state: { meta: { page: 1 } },
      links: [{ rel: 'search', href: '/books{?query}', templated: true }],
      controls: [],
      items: [plain, titled, clashing],
    };
    const odd: Resource[] = [
      { ...page, state: { data: 'a state field named like the members', meta: {} } },
      { ...book, state: { controls: 'a state field so named' } },
      { ...book, controls: [...book.controls, { name: 'update', href: '/elsewhere', method: 'PUT', fields: [] }] },
      { ...book, controls: [{ name: '__proto__' as never, href: '/x', method: 'POST', fields: [] }] },
      { ...book, controls: [...book.controls, { name: '1' as never, href: '/x', method: 'POST', fields: [] }] },
      { ...withoutLinks, state: {} },
    ];
    for (const resource of [book, book, page, withoutLinks, titled, ...odd]) {
      expect(jsonFormat.resource(resource)).toBe(JSON.stringify(document(resource)));
    }
  });

  it('escapes hrefs and titles exactly as JSON.stringify does, quoting plain ones as they are', () => {
    // Quote, backslash, control characters, a lone surrogate of either half; a paired one and U+2028 pass.
    const strings = [
      'plain',
      'a "quote"',
      'back\\slash',
      'tab\tand\u0001',
      'lone \ud800',
      'lone \udfff',
      '\u{1F4DA} \u2028',
      '',
    ];
    for (const text of strings) {
      const resource: Resource = {
        kind: 'book',
        state: { id: 1 },
        links: [{ rel: 'self', href: `/books/1?q=${text}`, title: text }],
        controls: [
          { name: 'update', href: `/books/${text}`, method: 'PUT', title: text, contentType: text, fields: [] },
        ],
      };
      expect(jsonFormat.resource(resource)).toBe(JSON.stringify(document(resource)));
      expect(JSON.parse(jsonFormat.resource(resource)).links[0].href).toBe(`/books/1?q=${text}`);
    }
  });

  it('writes fields made from definitions as stringifying them writes, also once their members change', () => {
    const definitions: InputField[] = [
      { name: 'title', type: 'string', required: true, maxLength: 500, title: 'Title' },
      { name: 'year', type: 'integer', required: true, min: -3000, max: 2100, title: 'Year' },
      { name: 'status', type: 'string', required: true, enum: ['returned'], title: 'Status' },
      { name: 'author_id', type: 'integer', required: true, min: 1 },
      { name: 'ready', type: 'boolean', required: false },
    ];
    const choices = { author_id: Object.freeze({ href: '/authors', valueField: 'id', promptField: 'name' }) };
    const control = (fields: Field[]): Resource => ({
      kind: 'book',
      state: { id: 1 },
      links: [],
      controls: [{ name: 'update', href: '/books/1', method: 'PUT', fields }],
    });
    const values = [
      { title: 'A "quoted" \u2028 title', year: -0, status: 'returned', author_id: 3, ready: true },
      { title: '', year: 1999, author_id: 4, ready: false },
      {},
    ];
    for (const mode of ['change', 'create'] as const) {
      for (const value of values) {
        const fields = inputFields(definitions, { values: value, mode, choices });
        const resource = control(fields);
        expect(jsonFormat.resource(resource)).toBe(JSON.stringify(document(resource)));
        // A member changed after the field was made (on a copy, should the field be frozen), or a value
        // taken away: written as it now is.
        const changed = (i: number): Field => {
          if (Object.isFrozen(fields[i])) fields[i] = { ...(fields[i] as Field) };
          return fields[i] as Field;
        };
        changed(0).required = !(fields[0] as Field).required;
        delete changed(1).value;
        changed(3).options = { href: '/elsewhere', valueField: 'id', promptField: 'name' };
        changed(4).title = 'Ready';
        expect(jsonFormat.resource(resource)).toBe(JSON.stringify(document(resource)));
      }
    }
  });

  it('writes fields again once they have changed', () => {
    const first = jsonFormat.resource(book);
    (shared[0] as { value: string }).value = 'changed';
    expect(jsonFormat.resource(book)).not.toBe(first);
    expect(jsonFormat.resource(book)).toBe(JSON.stringify(document(book)));
  });
});
