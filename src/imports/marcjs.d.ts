/** The part of marcjs (which ships no types) the ISO 2709 reader and the tests use. */
declare module 'marcjs' {
  import type { Duplex } from 'node:stream';

  /** A record: `[tag, value]` control fields, `[tag, indicators, code, value, …]` data fields. */
  interface MarcjsRecord {
    leader: string;
    fields: string[][];
  }

  /** A stream: ISO 2709 bytes written in, records read out. */
  export class Iso2709Parser extends Duplex {}

  export const Marc: {
    parse(raw: Buffer | string, type: string): MarcjsRecord;
    /** A record written in a format (`'Iso2709'`, `'Marcxml'`…). */
    format(record: MarcjsRecord, type: string): string;
  };
}
