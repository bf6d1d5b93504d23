/**
 * @module SRU (Search/Retrieve via URL) 2.0 and 1.2, the protocol's entry point: `/sru` registered on the app
 * (`routes.ts`, the one file that knows Hono). Inside: the request read (`request.ts`), CQL parsed (`cql.ts`)
 * and translated to the catalogue's query of books (`indexes.ts`), the operations answered (`answer.ts`), and
 * the XML written (`response.ts`, explain's ZeeRex in `explain.ts`, records in `record-schemas.ts`), with the
 * diagnostics of `diagnostics.ts`. Nothing outside this folder imports any other file of it.
 */
export { sruRoutes } from './routes.js';
