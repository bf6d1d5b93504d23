/** @module Users, their roles, and what a client may write about them. */
import type { InputField, InputOf } from './input.js';
import { NAME_MAX_LENGTH } from './limits.js';

/** `librarian` manages the catalogue, users and all loans; `member` borrows and returns for themselves. */
export type Role = 'librarian' | 'member';
export const roles: readonly Role[] = ['librarian', 'member'];

export interface User {
  id: number;
  name: string;
  role: Role;
}

export interface StoredUser extends User {
  version: number;
}

export type UserInput = InputOf<typeof userInputFields>;

export const userInputFields = [
  { name: 'name', type: 'string', required: true, maxLength: NAME_MAX_LENGTH, title: 'Name' },
  { name: 'role', type: 'string', required: true, enum: roles, title: 'Role' },
] as const satisfies readonly InputField[];
