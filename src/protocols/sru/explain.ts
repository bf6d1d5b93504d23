/**
 * @module Explain's record: the server described in ZeeRex 2.0 (`http://explain.z3950.org/dtd/2.0/`), the
 * schema both SRU 1.2 and 2.0 explain in: where it is, its indexes with their relations (`CQL_INDEXES`), its
 * record schemas, and how many records a response carries.
 */
import { create } from 'xmlbuilder2';
import { CONTEXT_SETS, type ContextSet, CQL_INDEXES } from './indexes.js';
import { recordSchemas } from './record-schemas.js';
import { DEFAULT_MAXIMUM_RECORDS, MAXIMUM_RECORDS, type SruVersion } from './request.js';

export const ZEEREX = 'http://explain.z3950.org/dtd/2.0/';

/** The ZeeRex record of the server at `url`, as XML text (no declaration). */
export function writeZeeRex(version: SruVersion, url: URL): string {
  const explain = create({ invalidCharReplacement: '\uFFFD' }).ele(ZEEREX, 'zr:explain');
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  const server = explain.ele(ZEEREX, 'zr:serverInfo', {
    protocol: 'SRU',
    version,
    transport: url.protocol.slice(0, -1),
  });
  server.ele(ZEEREX, 'zr:host').txt(url.hostname);
  server.ele(ZEEREX, 'zr:port').txt(port);
  server.ele(ZEEREX, 'zr:database').txt(url.pathname.replace(/^\//, ''));
  const database = explain.ele(ZEEREX, 'zr:databaseInfo');
  database.ele(ZEEREX, 'zr:title', { lang: 'en', primary: 'true' }).txt('The catalogue');
  database
    .ele(ZEEREX, 'zr:description', { lang: 'en', primary: 'true' })
    .txt('Every book of the catalogue, searched by CQL, as MARCXML or Dublin Core records.');
  const indexInfo = explain.ele(ZEEREX, 'zr:indexInfo');
  for (const set of Object.keys(CONTEXT_SETS) as ContextSet[]) {
    indexInfo.ele(ZEEREX, 'zr:set', { name: set, identifier: CONTEXT_SETS[set] });
  }
  for (const index of CQL_INDEXES) {
    const element = indexInfo.ele(ZEEREX, 'zr:index', { search: 'true', scan: 'false', sort: 'false' });
    element.ele(ZEEREX, 'zr:title', { lang: 'en' }).txt(index.title);
    element.ele(ZEEREX, 'zr:map').ele(ZEEREX, 'zr:name', { set: index.set }).txt(index.name);
    const config = element.ele(ZEEREX, 'zr:configInfo');
    for (const relation of index.relations) config.ele(ZEEREX, 'zr:supports', { type: 'relation' }).txt(relation);
  }
  const schemaInfo = explain.ele(ZEEREX, 'zr:schemaInfo');
  for (const schema of recordSchemas) {
    schemaInfo
      .ele(ZEEREX, 'zr:schema', {
        identifier: schema.identifier,
        name: schema.name,
        location: schema.location,
        retrieve: 'true',
        sort: 'false',
      })
      .ele(ZEEREX, 'zr:title', { lang: 'en' })
      .txt(schema.title);
  }
  const config = explain.ele(ZEEREX, 'zr:configInfo');
  config.ele(ZEEREX, 'zr:default', { type: 'numberOfRecords' }).txt(String(DEFAULT_MAXIMUM_RECORDS));
  config.ele(ZEEREX, 'zr:default', { type: 'retrieveSchema' }).txt('marcxml');
  config.ele(ZEEREX, 'zr:setting', { type: 'maximumRecords' }).txt(String(MAXIMUM_RECORDS));
  for (const relation of ['and', 'or', 'not']) {
    config.ele(ZEEREX, 'zr:supports', { type: 'booleanOperator' }).txt(relation);
  }
  config.ele(ZEEREX, 'zr:supports', { type: 'maskingCharacter' }).txt('*');
  return explain.end({ headless: true });
}
