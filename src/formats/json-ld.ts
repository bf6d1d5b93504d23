/**
 * @module schema.org in JSON-LD (`application/ld+json`): a book as a `Book`, an author as a `Person`, for
 * search engines and the web's linked data. The HTML view embeds the same document in a book's and an
 * author's page. Translation only: every value is the resource's state or one of its links.
 */
import { languageTag } from '../domain/identifiers.js';
import type { Resource, ResourceStream } from '../hypermedia/model.js';
import type { Format } from './format.js';

const CONTEXT = 'https://schema.org';

type Node = Record<string, unknown>;

function linkOf(resource: Resource, rel: string) {
  return resource.links.find((link) => link.rel === rel);
}

/** A year as ISO 8601 writes it: four digits, a minus sign before the common era. */
function yearText(year: number): string {
  return `${year < 0 ? '-' : ''}${String(Math.abs(year)).padStart(4, '0')}`;
}

function book(resource: Resource): Node {
  const { state } = resource;
  const author = linkOf(resource, 'author');
  const node: Node = { '@context': CONTEXT, '@type': 'Book', url: linkOf(resource, 'self')?.href, name: state.title };
  if (author) node.author = { '@type': 'Person', name: author.title, url: author.href };
  if (typeof state.publication_year === 'number') node.datePublished = yearText(state.publication_year);
  if (typeof state.isbn === 'string') node.isbn = state.isbn;
  if (typeof state.language === 'string') node.inLanguage = languageTag(state.language);
  if (Array.isArray(state.subjects) && state.subjects.length > 0) {
    node.about = state.subjects.map((subject) => ({ '@type': 'Thing', name: subject }));
  }
  if (typeof state.publisher === 'string') node.publisher = { '@type': 'Organization', name: state.publisher };
  return node;
}

function person(resource: Resource): Node {
  return { '@context': CONTEXT, '@type': 'Person', url: linkOf(resource, 'self')?.href, name: resource.state.name };
}

const nodes: Partial<Record<Resource['kind'], (resource: Resource) => Node>> = { book, author: person };

/** The document of a resource, or `undefined` for a kind schema.org is not given here. */
export function linkedData(resource: Resource): string | undefined {
  const node = nodes[resource.kind];
  return node && JSON.stringify(node(resource));
}

export const jsonLdFormat: Format = {
  contentType: 'application/ld+json; charset=utf-8',
  mediaTypes: ['application/ld+json'],
  kinds: ['book', 'author'],
  resource: (resource) => linkedData(resource) ?? '{}',
  // Not reached: no list is among its kinds. Kept so the format stands on its own: the members, an array.
  async *stream(stream: ResourceStream) {
    let first = true;
    for await (const batch of stream.items) {
      for (const item of batch) {
        yield (first ? '[' : ',') + (linkedData(item) ?? '{}');
        first = false;
      }
    }
    yield first ? '[]' : ']';
  },
};
