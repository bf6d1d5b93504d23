/** @module Users, their roles, and what a client may write about them. */
import type { InputField, InputOf } from './input.js';
import { INT4_MAX, NAME_MAX_LENGTH } from './limits.js';

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
  /** Where notices are sent; `null`: none are. Absent where it was not read. */
  email?: string | null;
}

export interface StoredUser extends User {
  version: number;
}

export type UserInput = InputOf<typeof userInputFields>;

export const userInputFields = [
  { name: 'name', type: 'string', required: true, maxLength: NAME_MAX_LENGTH, title: 'Name' },
  { name: 'role', type: 'string', required: true, enum: roles, title: 'Role' },
  { name: 'patron_category_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Patron category' },
  { name: 'home_branch_id', type: 'integer', required: false, min: 1, max: INT4_MAX, title: 'Home branch' },
] as const satisfies readonly InputField[];
