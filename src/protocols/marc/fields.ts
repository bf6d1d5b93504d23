/**
 * @module A MARC 21 record as the readers hand it over, whatever it was read from (MARCXML, ISO 2709): the
 * shape `marcjs` uses, so its ISO 2709 parser's records need no translation.
 */

/**
 * A control field is `[tag, value]` (tags 001–009); a data field is `[tag, indicators, code, value, code,
 * value, …]`, the two indicators as one string of two characters.
 */
export type MarcField = string[];

export interface MarcRecord {
  leader: string;
  fields: MarcField[];
}

/** Whether a field of this tag is a control field (no indicators, no subfields). */
export function isControlTag(tag: string): boolean {
  return /^00\d$/.test(tag);
}

/** The value of the first control field with this tag. */
export function controlField(record: MarcRecord, tag: string): string | undefined {
  return record.fields.find((field) => field[0] === tag)?.[1];
}

/** The data fields with this tag, in record order. */
export function dataFields(record: MarcRecord, tag: string): MarcField[] {
  return record.fields.filter((field) => field[0] === tag && field.length >= 2 && !isControlTag(tag));
}

/** The values of the subfields with this code in one data field, in order. */
export function subfields(field: MarcField, code: string): string[] {
  const values: string[] = [];
  for (let i = 2; i + 1 < field.length; i += 2) if (field[i] === code) values.push(field[i + 1] as string);
  return values;
}

/** The first value of a subfield with this code in the first field with this tag that has one. */
export function firstSubfield(record: MarcRecord, tag: string, code: string): string | undefined {
  for (const field of dataFields(record, tag)) {
    const [value] = subfields(field, code);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A data field's second indicator (what a 264 states: 1 publication, 4 copyright …). */
export function secondIndicator(field: MarcField): string {
  return field[1]?.[1] ?? ' ';
}

/** A data field's first indicator (for a 100: 0 a forename, 1 a surname first, 3 a family name). */
export function firstIndicator(field: MarcField): string {
  return field[1]?.[0] ?? ' ';
}
