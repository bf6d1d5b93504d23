/**
 * @module The tools' only way into the catalogue: requests to the app itself, in process, as the MCP
 * request's bearer, through the same middleware as any client's: the tools have no second API.
 */
import type { Withheld } from '../affordances/context.js';
import type { Decision } from '../domain/policy.js';
import type { Method } from '../hypermedia/vocabulary.js';
import { ToolError } from './errors.js';
import type { Scope } from './scope.js';

/** The most of an answer read: more than any document or page; a whole collection is cut to it. */
export const MAX_ANSWER_CHARS = 256 * 1024;

export interface AppClientOptions {
  /**
   * Answers a request as the app does (`app.fetch`), noting in `withheld` the controls its document
   * leaves out, each with the policy's decision.
   */
  fetch: (request: Request, withheld: Withheld) => Response | Promise<Response>;
  /** The origin requests to the app are addressed to: the MCP request's own. */
  origin: string;
  /** Which URLs are the service's. */
  scope: Scope;
  /** The MCP request's `Authorization` header, passed on as it came. */
  authorization: string | undefined;
}

/** A link from a `Link` header (RFC 8288): what a 204 has to say about where to go next. */
export interface HeaderLink {
  rel: string;
  href: string;
}

/** The app's answer to one request, read. */
export interface Answer {
  status: number;
  /** The URL asked for, as the agent named it. */
  url: string;
  /** `Location`, where the answer names one (a 201's new resource). */
  location?: string;
  /** `ETag`, the version of the document answered, where it has one. */
  etag?: string;
  /** The links of the `Link` header. */
  headerLinks: HeaderLink[];
  /** The JSON body, parsed; `undefined` when there is none. */
  body: unknown;
  /** True when the body was a whole collection longer than `MAX_ANSWER_CHARS`, cut to its first items. */
  truncated: boolean;
  /** The controls the document leaves out for this caller, by name, with the policy's decision (why not). */
  withheld?: ReadonlyMap<string, Decision>;
}

/** What a request carries besides its method and URL. */
export interface RequestParts {
  /** Query parameters appended to the URL (a GET control's fields). */
  query?: URLSearchParams;
  /** A JSON body, sent with this media type. */
  body?: { json: unknown; contentType: string };
  /** `If-Match`: the write applies only to this version of its target. */
  ifMatch?: string;
}

export class AppClient {
  constructor(private readonly options: AppClientOptions) {}

  /** The root document's URL. */
  get root(): string {
    return this.options.scope.root;
  }

  /** Sends one request to the app; refuses (`ToolError`) a URL outside the service before sending. */
  async request(method: Method, url: string, parts: RequestParts = {}): Promise<Answer> {
    let path = this.options.scope.pathOf(url);
    const query = parts.query?.toString();
    if (query) path += (path.includes('?') ? '&' : '?') + query;
    const headers = new Headers({ Accept: 'application/json' });
    if (this.options.authorization !== undefined) headers.set('Authorization', this.options.authorization);
    if (parts.ifMatch !== undefined) headers.set('If-Match', parts.ifMatch);
    let body: string | undefined;
    if (parts.body) {
      headers.set('Content-Type', parts.body.contentType);
      body = JSON.stringify(parts.body.json);
    }
    const withheld: Withheld = new Map();
    const response = await this.options.fetch(
      // Joined, not resolved: a path such as `//host/x` stays a path of this origin.
      new Request(this.options.origin + path, { method, headers, body }),
      withheld,
    );
    const location = response.headers.get('location');
    const etag = response.headers.get('etag');
    return {
      status: response.status,
      url,
      ...(location !== null && { location }),
      ...(etag !== null && { etag }),
      headerLinks: parseLinkHeader(response.headers.get('link')),
      ...(await readBody(response)),
      withheld,
    };
  }
}

async function readBody(response: Response): Promise<{ body: unknown; truncated: boolean }> {
  if (!response.body) return { body: undefined, truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > MAX_ANSWER_CHARS) {
      cut = true;
      // The rest is never read: the app stops streaming the collection as for a client that went away.
      await reader.cancel();
      break;
    }
  }
  if (!cut) text += decoder.decode();
  if (text === '') return { body: undefined, truncated: false };
  if (cut) {
    const items = wholeItems(text);
    if (items === undefined) throw new ToolError(`the answer is longer than ${MAX_ANSWER_CHARS} characters`);
    return { body: JSON.parse(items), truncated: true };
  }
  try {
    return { body: JSON.parse(text), truncated: false };
  } catch {
    throw new ToolError(`the answer (${response.headers.get('content-type') ?? 'no type'}) is not JSON`);
  }
}

/**
 * The start of a JSON array cut anywhere, as an array of its complete members: up to the last comma
 * between members (outside any string or nested value). `undefined` when `text` is no array or holds no
 * complete member.
 */
export function wholeItems(text: string): string | undefined {
  if (!text.startsWith('[')) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let lastComma = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) lastComma = i;
  }
  return lastComma > 0 ? `${text.slice(0, lastComma)}]` : undefined;
}

/** The links of a `Link` header as the catalogue writes it: `<href>; rel="name", …` (RFC 8288 §3). */
export function parseLinkHeader(header: string | null): HeaderLink[] {
  if (!header) return [];
  const links: HeaderLink[] = [];
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>(.*)$/.exec(part.trim());
    const rels = match && /;\s*rel="?([^";]+)"?/i.exec(match[2] as string);
    if (match && rels) {
      for (const rel of (rels[1] as string).split(/\s+/)) links.push({ rel, href: match[1] as string });
    }
  }
  return links;
}
