/** @module Users, their roles, and what a client may write about them. */
import type { InputField, InputOf } from './input.js';
import {
  CARD_NUMBER_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  INT4_MAX,
  LANGUAGE_TAG_MAX_LENGTH,
  NAME_MAX_LENGTH,
} from './limits.js';

/** `librarian` manages the catalogue, users and all loans; `member` borrows and returns for themselves. */
export type Role = 'librarian' | 'member';
export const roles: readonly Role[] = ['librarian', 'member'];

export interface User {
  id: number;
  name: string;
  role: Role;
  /** Which lending rules apply to them. */
  patron_category_id: number;
  /** Where their holds are collected unless they name another branch. */
  home_branch_id: number;
}

export interface StoredUser extends User, PatronContact, PinRecord {
  version: number;
}

/**
 * A card's wrong PINs as stored: the count of the last run and when its lock ends or ended. What they mean
 * now is `pinLockAt`'s (a lock that has run out is none); shown to librarians only.
 */
export interface PinRecord {
  pin_failures: number;
  /** ISO 8601, or null: never locked since the count last started again. */
  pin_locked_until: string | null;
}

/** A patron's card and how to reach them: shown to the patron themselves and to librarians only. */
export interface PatronContact {
  /** Their library card's number, unique; null: no card. */
  card_number: string | null;
  /** Where notices go; null: none are sent. */
  email: string | null;
  /** Their language (BCP 47), where known. */
  language: string | null;
  /** Whether they have a PIN, so sign in with their card (the PIN itself is never shown, nor its hash). */
  pin_set: boolean;
}

export type UserInput = InputOf<typeof userInputFields>;

export const userInputFields = [
  { name: 'name', type: 'string', required: true, maxLength: NAME_MAX_LENGTH, title: 'Name' },
  { name: 'role', type: 'string', required: true, enum: roles, title: 'Role' },
  { name: 'patron_category_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Patron category' },
  { name: 'home_branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Home branch' },
  {
    name: 'card_number',
    type: 'string',
    required: false,
    maxLength: CARD_NUMBER_MAX_LENGTH,
    nullable: true,
    title: 'Library card',
  },
  { name: 'email', type: 'string', required: false, maxLength: EMAIL_MAX_LENGTH, nullable: true, title: 'Email' },
  {
    name: 'language',
    type: 'string',
    required: false,
    maxLength: LANGUAGE_TAG_MAX_LENGTH,
    nullable: true,
    title: 'Language (BCP 47, e.g. en, fr-CA)',
  },
] as const satisfies readonly InputField[];
