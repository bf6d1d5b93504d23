/**
 * @module The lists a library sets up before it lends (branches, patron categories, item types): what an
 * entry is, what a client may write about one, and a branch's opening days by name.
 */
import { UnprocessableEntity } from './errors.js';
import type { InputField, InputOf } from './input.js';
import { NAME_MAX_LENGTH } from './limits.js';

/** The lists, as the API names their kinds. */
export type LendingListKind = 'branch' | 'patron-category' | 'item-type';

/** An entry of any of the lists. */
export interface ListEntry {
  id: number;
  /** Short, lowercase, unique in its list: what people type at a desk (`main`, `dvd`). */
  code: string;
  name: string;
  /** The one entry of its list that new users and copies get when none is named. */
  is_default: boolean;
}

export interface StoredListEntry extends ListEntry {
  version: number;
  /** A branch's opening days; absent for the other lists. */
  open_days?: Weekday[];
}

/** Weekdays by name, Monday first: ISO 8601 numbers them 1 (Monday) to 7 (Sunday), as `open_weekdays` stores them. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The longest code, and in words the shape the database checks (`<list>_code_format`). */
export const CODE_MAX_LENGTH = 32;
export const CODE_RULE = `1 to ${CODE_MAX_LENGTH} lowercase letters, digits, _ or -, starting with a letter or digit`;

/** What every list's entries take; `is_default: true` makes the entry its list's default. */
export const listEntryInputFields = [
  { name: 'code', type: 'string', required: true, maxLength: CODE_MAX_LENGTH, title: 'Code' },
  { name: 'name', type: 'string', required: true, maxLength: NAME_MAX_LENGTH, title: 'Name' },
  { name: 'is_default', type: 'boolean', required: false, title: 'The default' },
] as const satisfies readonly InputField[];

/** A branch's, besides: the days it opens (every day unless named). */
export const branchInputFields = [
  ...listEntryInputFields,
  {
    name: 'open_days',
    type: 'string',
    required: false,
    multiple: true,
    maxItems: WEEKDAYS.length,
    enum: WEEKDAYS,
    title: 'Open days',
  },
] as const satisfies readonly InputField[];

/** What a write of any list carries, once checked. */
export type ListEntryWrite = Partial<InputOf<typeof listEntryInputFields>> & { open_days?: Weekday[] };

/** The ISO numbers of weekdays named, in week order; a branch open on no day is refused. */
export function isoWeekdays(days: readonly Weekday[]): number[] {
  if (days.length === 0) {
    throw new UnprocessableEntity('a branch opens on at least one day: open_days must name one', {
      open_days: 'must name at least one day',
    });
  }
  return WEEKDAYS.flatMap((day, at) => (days.includes(day) ? [at + 1] : []));
}

/** The names of ISO weekday numbers, in week order. */
export function weekdayNames(numbers: readonly number[]): Weekday[] {
  return WEEKDAYS.filter((_, at) => numbers.includes(at + 1));
}
