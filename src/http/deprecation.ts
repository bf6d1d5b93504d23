/**
 * @module Announces deprecated rels and controls. A response that carries one (in its links or controls,
 * or its members') gets `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `deprecation` link to the
 * docs, so a client learns of a retirement from the responses it already reads, with no version change.
 */
import type { Control, Link, Resource } from '../hypermedia/model.js';
import type { Deprecation, Vocabulary } from '../hypermedia/vocabulary.js';

/** The deprecated names of a vocabulary, looked up per response. */
export interface Deprecations {
  rels: ReadonlyMap<string, Deprecation>;
  controls: ReadonlyMap<string, Deprecation>;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Indexes the deprecated entries once; a malformed date stops the app from starting. */
export function deprecationsOf(vocabulary: Vocabulary): Deprecations {
  const index = (entries: Record<string, { deprecated?: Deprecation }>) => {
    const found = new Map<string, Deprecation>();
    for (const [name, entry] of Object.entries(entries)) {
      if (!entry.deprecated) continue;
      check(name, entry.deprecated);
      found.set(name, entry.deprecated);
    }
    return found;
  };
  return { rels: index(vocabulary.rels), controls: index(vocabulary.controls) };
}

/** What a response carries: its links and controls, and those of its members. */
export interface Carried {
  links: readonly Link[];
  controls: readonly Control[];
  items?: readonly Resource[] | AsyncIterable<Resource>;
  embedded?: readonly { items: readonly Resource[] }[];
}

/** Response headers by name, as `send` builds them; a list-valued header (`Link`) joined with commas. */
export type HeaderRecord = Record<string, string>;

/**
 * Sets the headers for the deprecated names a response carries. Several at once: the earliest
 * deprecation and the earliest sunset are announced, with a `deprecation` link to each one's docs.
 * (Members of a streamed collection are not known before the headers go out; theirs are not announced.)
 */
export function announceDeprecations(headers: HeaderRecord, deprecations: Deprecations, carried: Carried): void {
  if (deprecations.rels.size === 0 && deprecations.controls.size === 0) return;
  const found = new Set<Deprecation>();
  const visit = (resource: Carried) => {
    for (const link of resource.links) {
      const deprecation = deprecations.rels.get(link.rel);
      if (deprecation) found.add(deprecation);
    }
    for (const control of resource.controls) {
      const deprecation = deprecations.controls.get(control.name);
      if (deprecation) found.add(deprecation);
    }
    if (Array.isArray(resource.items)) for (const item of resource.items) visit(item);
    for (const group of resource.embedded ?? []) for (const item of group.items) visit(item);
  };
  visit(carried);
  if (found.size === 0) return;
  const all = [...found];
  // RFC 9745 §2.1: a Structured Field Date, seconds since the epoch.
  headers.Deprecation = `@${Math.min(...all.map((d) => epochSeconds(d.since)))}`;
  const sunsets = all.flatMap((d) => (d.sunset ? [epochSeconds(d.sunset)] : []));
  // RFC 8594 §3: an HTTP-date.
  if (sunsets.length > 0) headers.Sunset = new Date(Math.min(...sunsets) * 1000).toUTCString();
  for (const docs of new Set(all.map((d) => d.docs))) {
    headers.Link = `${headers.Link ? `${headers.Link}, ` : ''}<${docs}>; rel="deprecation"`;
  }
}

function epochSeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

function check(name: string, deprecation: Deprecation): void {
  for (const day of [deprecation.since, deprecation.sunset]) {
    if (day !== undefined && (!ISO_DATE.test(day) || Number.isNaN(epochSeconds(day)))) {
      throw new Error(`deprecation of "${name}": "${day}" is not a date (YYYY-MM-DD)`);
    }
  }
  if (deprecation.sunset !== undefined && deprecation.sunset < deprecation.since) {
    throw new Error(`deprecation of "${name}": the sunset comes before the deprecation`);
  }
  if (!/^https?:\/\/|^\//.test(deprecation.docs)) {
    throw new Error(`deprecation of "${name}": docs must be an http(s) URL or a path`);
  }
}
