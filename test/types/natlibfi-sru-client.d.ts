/** @module The part of @natlibfi/sru-client (no types of its own) the SRU tests use. */
declare module '@natlibfi/sru-client' {
  import type { EventEmitter } from 'node:events';

  export interface SruClientOptions {
    url: string;
    recordSchema: string;
    version?: string;
    maxRecordsPerRequest?: number;
    metadataFormat?: 'string' | 'object' | 'marcJson';
    retrieveAll?: boolean;
  }

  export interface SruClient {
    /** Emits `record` for each record, `total` once, then `end` (with the next position when it stopped early) or `error`. */
    searchRetrieve(query: string, options?: { startRecord?: number; recordSchema?: string }): EventEmitter;
  }

  export default function createClient(options: SruClientOptions): SruClient;
}
