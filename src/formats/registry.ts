/**
 * @module The formats the catalogue speaks, and content negotiation over them (RFC 9110 §12.5.1).
 * Registering a format here is all it takes for every route to offer it.
 */
import { marcFormat, marcXmlFormat } from '../protocols/marc/index.js';
import type { Format } from './format.js';
import { halFormat } from './hal.js';
import { halFormsFormat } from './hal-forms.js';
import { htmlFormat } from './html/index.js';
import { jsonFormat } from './json.js';
import { jsonLdFormat } from './json-ld.js';

/** In order of preference when the client likes several equally; the first is the default. */
export const formats: readonly Format[] = [
  jsonFormat,
  halFormsFormat,
  halFormat,
  htmlFormat,
  marcXmlFormat,
  marcFormat,
  jsonLdFormat,
];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** RFC 9457's media type: asked for in `Accept`, it says how errors are to be written, not documents. */
export const PROBLEM_JSON = 'application/problem+json';

/**
 * The format to answer with, or `undefined` when none is acceptable (406). `application/problem+json`
 * is left out: an Accept of it alone asks nothing of documents, which then come in the default format (a
 * server may disregard an Accept rather than answer 406, RFC 9110 §12.5.1).
 */
export function negotiate(accept: string | undefined, available: readonly Format[] = formats): Format | undefined {
  return preferred(accept, available);
}

/**
 * Of things each answering some media types (formats, or a route's own answer such as an event stream),
 * the one `Accept` likes best; the first when `Accept` is absent, `undefined` when it likes none.
 */
export function preferred<T extends { mediaTypes: readonly string[] }>(
  accept: string | undefined,
  available: readonly T[],
): T | undefined {
  if (accept === undefined || accept.trim() === '') return available[0];
  const ranges = parseAccept(accept).filter((range) => !isProblemJson(range));
  if (ranges.length === 0) return available[0];
  let best: { format: T; q: number; specificity: number } | undefined;
  for (const format of available) {
    for (const mediaType of format.mediaTypes) {
      const [type, subtype] = mediaType.split('/') as [string, string];
      const match = matchRange(ranges, type, subtype);
      if (match && match.q > 0 && (!best || match.q > best.q)) best = { format, ...match };
    }
  }
  return best?.format;
}

/**
 * Whether errors are to be problem documents: `application/problem+json` is named in `Accept` with a
 * quality above 0. Wildcards do not count: a client that accepts anything gets the seed's error shape.
 */
export function asksForProblemDetails(accept: string | undefined): boolean {
  if (accept === undefined || !accept.toLowerCase().includes(PROBLEM_JSON)) return false;
  return parseAccept(accept).some((range) => isProblemJson(range) && range.q > 0);
}

function isProblemJson(range: MediaRange): boolean {
  return range.type === 'application' && range.subtype === 'problem+json';
}

/** The most specific range matching the media type decides its quality. */
function matchRange(ranges: MediaRange[], type: string, subtype: string) {
  let found: { q: number; specificity: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!found || specificity > found.specificity)) found = { q: range.q, specificity };
  }
  return found;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype] = mediaRange.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}
