/**
 * @module OAI-PMH 2.0, the protocol's entry point: `/oai` registered on the app (`routes.ts`, the one file
 * that knows Hono). Inside: the request read (`request.ts`, `dates.ts`, `token.ts`, `identifiers.ts`), the
 * verbs answered (`answer.ts`), and the XML written (`response.ts`, the metadata formats in
 * `metadata-formats.ts`). Nothing outside this folder imports any other file of it; SRU takes from here the
 * Dublin Core elements of a book (`writeDublinCore`) and the placing of records written as text (`VerbatimXml`).
 */
export { writeDublinCore } from './oai-dc.js';
export { type OaiPmhOptions, oaiPmhRoutes } from './routes.js';
export { VerbatimXml } from './verbatim.js';
