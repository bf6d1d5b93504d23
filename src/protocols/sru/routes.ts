/**
 * @module `/sru`, the SRU endpoint for union catalogues and cataloguing tools: GET with the parameters in the
 * query (SRU 2.0 and 1.2 both bind to HTTP GET). Readable by whoever may read the catalogue. The protocol's
 * one adapter to HTTP: the rest of this folder knows nothing of Hono.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../../http/env.js';
import { type Operations, route } from '../../http/route.js';
import { paths } from '../../hypermedia/uris.js';
import { answerSru } from './answer.js';
import { MAXIMUM_RECORDS } from './request.js';
import { SRU_CONTENT_TYPES, writeSruResponse } from './response.js';

/** The protocol's parameters, as OpenAPI describes them; which operation takes which is the protocol's. */
const parameters = [
  {
    name: 'query',
    description: 'A CQL query (docs/protocols.md, "SRU"): with it, searchRetrieve; without, explain',
    schema: { type: 'string' },
  },
  { name: 'version', description: '`2.0` (the default) or `1.2`', schema: { type: 'string' } },
  {
    name: 'operation',
    description: 'SRU 1.2: `explain` or `searchRetrieve` (SRU 2.0 tells them by `query`)',
    schema: { type: 'string' },
  },
  { name: 'startRecord', description: 'The position of the first record, from 1', schema: { type: 'integer' } },
  {
    name: 'maximumRecords',
    description: `Records per response: 10 unless asked, ${MAXIMUM_RECORDS} at most`,
    schema: { type: 'integer' },
  },
  { name: 'recordSchema', description: '`marcxml` (the default) or `dc`', schema: { type: 'string' } },
  {
    name: 'recordXMLEscaping',
    description: 'SRU 2.0: records as `xml` (the default) or as escaped `string`',
    schema: { type: 'string' },
  },
  { name: 'recordPacking', description: 'SRU 1.2: `xml` (the default) or `string`', schema: { type: 'string' } },
];

/** Where the server says it is when no public URL is configured (`CATALOGUE_PUBLIC_URL`). */
const UNCONFIGURED = 'http://localhost/';

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/sru` */
  sru: {
    GET: {
      summary:
        'SRU 2.0 and 1.2 for union catalogues and cataloguing tools (explain, searchRetrieve by CQL); the ' +
        'protocol\u2019s diagnostics are answered 200 in the response',
      produces: SRU_CONTENT_TYPES['2.0'],
      parameters,
    },
  },
} satisfies Record<string, Operations>;

export function sruRoutes(app: Hono<AppEnv>): void {
  route(app, paths.sru, operations.sru, {
    GET: async (c) => {
      const uris = c.get('uris');
      const answer = await answerSru(new URL(c.req.url).searchParams, {
        database: c.get('database'),
        bookUrl: (id) => uris.book(id),
        countLimit: c.get('listingCountLimit'),
      });
      // Explain tells where the server is from the public URL when one is configured, never from the
      // request's Host, which a shared cache would hand to others: without one, `localhost`.
      const endpoint = { url: new URL(uris.sru(), UNCONFIGURED) };
      const xml = writeSruResponse(answer, endpoint);
      return c.body(xml, 200, { 'Content-Type': SRU_CONTENT_TYPES[answer.version], 'Cache-Control': 'no-cache' });
    },
  });
}
