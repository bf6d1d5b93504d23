/**
 * @module Bearer tokens: long random secrets, of which only a SHA-256 hash is ever stored. A hash is
 * enough (no salt or slow KDF): the secret has 256 random bits, so it cannot be guessed from its hash.
 */
import { hash, randomBytes } from 'node:crypto';
import type { InputField } from './input.js';

/** A token as listed: never its secret. */
export interface Token {
  id: number;
  user_id: number;
  name: string;
  /** ISO 8601, UTC. */
  created_at: string;
}

export const tokenInputFields = [
  { name: 'name', type: 'string', required: false, maxLength: 200, title: 'Label' },
] as const satisfies readonly InputField[];

/** A fresh secret: `cat_` and 43 characters of base64url (256 random bits). */
export function newTokenSecret(): string {
  return `cat_${randomBytes(32).toString('base64url')}`;
}

/** One-shot `hash`: a Hash object per request cost twice as much, and every signed-in request hashes. */
export function hashTokenSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
