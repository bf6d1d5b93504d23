/**
 * @module `/oai`, the OAI-PMH 2.0 endpoint for harvesters: GET with the arguments in the query, or POST with
 * them as a form (§3.1.1). Readable by whoever may read the catalogue. The protocol's one adapter to HTTP:
 * the rest of this folder knows nothing of Hono.
 */
import type { Context, Hono } from 'hono';
import { isRepositoryId } from '../../domain/identifiers.js';
import { readFormFields } from '../../http/body.js';
import type { AppEnv } from '../../http/env.js';
import { type Operations, route } from '../../http/route.js';
import { paths } from '../../hypermedia/uris.js';
import { answerOai, type OaiRepository } from './answer.js';
import { OaiIdentifiers } from './identifiers.js';
import { metadataFormats } from './metadata-formats.js';
import { VERBS } from './request.js';
import { OAI_CONTENT_TYPE, writeOaiResponse } from './response.js';

/** The protocol's arguments (§4), as OpenAPI describes them; which verb takes which is the protocol's. */
const parameters = [
  {
    name: 'verb',
    required: true,
    description: 'The request: its other arguments are those the protocol gives this verb',
    schema: { enum: [...VERBS] },
  },
  { name: 'identifier', description: 'A record: `oai:<repository id>:book/<id>`', schema: { type: 'string' } },
  {
    name: 'metadataPrefix',
    description: `The metadata format: ${metadataFormats.map((format) => `\`${format.prefix}\``).join(' or ')}`,
    schema: { type: 'string' },
  },
  {
    name: 'from',
    description: 'Records changed from: `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`',
    schema: { type: 'string' },
  },
  {
    name: 'until',
    description: 'Records changed until (inclusive), in the form of `from`',
    schema: { type: 'string' },
  },
  { name: 'set', description: 'A set: the catalogue has none (`noSetHierarchy`)', schema: { type: 'string' } },
  { name: 'resumptionToken', description: 'The next page of a list, alone with `verb`', schema: { type: 'string' } },
];

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/oai` */
  oai: {
    GET: {
      summary:
        'OAI-PMH 2.0 for harvesters (Identify, ListMetadataFormats, ListSets, ListIdentifiers, ListRecords, ' +
        'GetRecord); the protocol\u2019s errors are answered 200 with an <error> element',
      produces: OAI_CONTENT_TYPE,
      parameters,
    },
    POST: {
      summary: 'OAI-PMH 2.0, the arguments sent as a form (application/x-www-form-urlencoded)',
      consumes: 'application/x-www-form-urlencoded',
      produces: OAI_CONTENT_TYPE,
      status: 200,
      reads: true,
      errors: [415],
    },
  },
} satisfies Record<string, Operations>;

/** The repository as configured (`OaiConfig`, its defaults filled in by the caller). */
export interface OaiPmhOptions {
  repositoryId?: string | undefined;
  adminEmail?: string | undefined;
  /** Records per page of ListIdentifiers and ListRecords. */
  pageSize: number;
  publicUrl?: string | undefined;
}

export function oaiPmhRoutes(app: Hono<AppEnv>, options: OaiPmhOptions): void {
  const repositoryId = options.repositoryId ?? hostOf(options.publicUrl) ?? 'catalogue';
  const repository: OaiRepository = {
    name: 'catalogue',
    // Identify must name someone (§4.2); `.invalid` says plainly that nobody was configured.
    adminEmail: options.adminEmail ?? `oai-admin@${repositoryId.includes('.') ? repositoryId : 'catalogue.invalid'}`,
    identifiers: new OaiIdentifiers(repositoryId),
    pageSize: options.pageSize,
  };
  const respond = async (c: Context<AppEnv>, params: URLSearchParams) => {
    // Absolute under the public URL when one is configured (harvesters want it), else path-absolute like
    // every other href: never built from the request's Host, which a shared cache would hand to others.
    const uris = c.get('uris');
    const baseUrl = uris.oaiPmh();
    const bookUrl = (id: number) => uris.book(id);
    const response = await answerOai(params, { database: c.get('database'), repository, baseUrl });
    const xml = writeOaiResponse(response, { identifiers: repository.identifiers, bookUrl });
    return c.body(xml, 200, { 'Content-Type': OAI_CONTENT_TYPE, 'Cache-Control': 'no-cache' });
  };
  route(app, paths.oaiPmh, operations.oai, {
    GET: (c) => respond(c, new URL(c.req.url).searchParams),
    POST: async (c) => respond(c, await readFormFields(c)),
  });
}

/** The public URL's host name, where it can be a repository id (an address cannot). */
function hostOf(publicUrl: string | undefined): string | undefined {
  const host = publicUrl === undefined ? undefined : new URL(publicUrl).hostname;
  return host !== undefined && isRepositoryId(host) ? host : undefined;
}
