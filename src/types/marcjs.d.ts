/** @module The part of marcjs (no types of its own) the catalogue and its tests use: the record model, its reader and writers. */
declare module 'marcjs' {
  /**
   * A MARC record: a 24-character leader and fields in tag order, each `[tag, value]` for a control field
   * or `[tag, indicators, code, value, code, value, …]` for a data field.
   */
  export class Record {
    leader: string;
    fields: string[][];
    /** Appends fields, each placed after the fields of a lower or equal tag. */
    append(...fields: string[][]): this;
    /** The fields whose tag matches, in MARC-in-JSON's shape. */
    get(match: string | RegExp): MarcField[];
  }

  export type MarcField =
    | { tag: string; value: string }
    | { tag: string; ind1: string; ind2: string; subf: [code: string, value: string][] };

  /** What the writers read of a record. */
  type Fields = Pick<Record, 'leader' | 'fields'>;

  interface Marc {
    /** Reads one record: `iso2709` (its bytes), `marcxml` or `mij`. */
    parse(raw: Buffer | string, type: string): Record;
    /** Writes one record: `iso2709`, `marcxml`, `mij`, `text` or `json`. */
    format(record: Fields, type: string): string;
  }

  export const Marc: Marc;
  /** Reads one ISO 2709 record's bytes, without its terminator. */
  export const Iso2709Parser: { parse(raw: Buffer): Record };

  const marcjs: {
    Marc: Marc;
    Record: typeof Record;
    MarcxmlFormater: { format(record: Fields): string };
    Iso2709Formater: { format(record: Fields): string };
    Iso2709Parser: { parse(raw: Buffer): Record };
  };
  export default marcjs;
}
