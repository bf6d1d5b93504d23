/**
 * @module A library card's PIN: what one may be, and its hash. Only the hash is kept, written by scrypt
 * (RFC 7914, node's `crypto.scrypt`) as a self-describing text `scrypt$N$r$p$salt$hash`, so that a stronger
 * cost set later verifies the PINs hashed before it. A PIN and its hash are never logged or shown.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { InvalidInput } from './errors.js';
import type { InputField } from './input.js';

/**
 * A PIN is 4 to 128 characters of any kind: the four digits a library hands out, or a passphrase a patron
 * prefers. Shorter is guessed too soon even with the lockout; longer is no PIN anyone types.
 */
export const PIN_MIN_LENGTH = 4;
export const PIN_MAX_LENGTH = 128;

/**
 * OWASP's recommended scrypt cost (N = 2^17, r = 8, p = 1) takes 128 MiB a hash. 2^14 takes 16 MiB and
 * tens of milliseconds: ample where the lockout allows a card a few tries, and light on a small server.
 */
const COST = { N: 2 ** 14, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Room for the costs a stored hash may name: scrypt needs 128·N·r bytes, 256 MiB at N = 2^18, r = 8. */
const MAX_MEMORY = 256 * 1024 * 1024;

/** How many wrong PINs in a row lock a card, and for how long (`CATALOGUE_PIN_ATTEMPTS`, `…_LOCKOUT_MINUTES`). */
export interface PinLockout {
  attempts: number;
  lockoutMinutes: number;
}

/**
 * A card's wrong PINs as they stand now: how many in a row are counted (none once a lock has run out: the
 * next wrong PIN starts a new run), and until when the card is locked (ISO 8601; null: it is not).
 */
export interface PinLock {
  failures: number;
  locked_until: string | null;
}

/** The card's lock as it stands at `now`, from what is stored. */
export function pinLockAt(stored: { pin_failures: number; pin_locked_until: string | null }, now: Date): PinLock {
  const locked = stored.pin_locked_until;
  if (locked !== null && Date.parse(locked) <= now.getTime()) return { failures: 0, locked_until: null };
  return { failures: stored.pin_failures, locked_until: locked };
}

/** Whether a card has anything to clear: wrong PINs counted, or a lock. */
export function pinLockHeld(lock: PinLock): boolean {
  return lock.failures > 0 || lock.locked_until !== null;
}

/** What a patron sends to change a PIN: the new one, and (their own, not a librarian) the one it replaces. */
export const pinInputFields = [
  { name: 'current_pin', type: 'string', required: false, maxLength: PIN_MAX_LENGTH, title: 'Current PIN' },
  { name: 'pin', type: 'string', required: true, maxLength: PIN_MAX_LENGTH, title: 'New PIN' },
] as const satisfies readonly InputField[];

/** What is wrong with a PIN as a new one, or `undefined`. */
export function pinProblem(pin: string): string | undefined {
  const length = [...pin].length;
  if (length < PIN_MIN_LENGTH) return `must be at least ${PIN_MIN_LENGTH} characters`;
  if (length > PIN_MAX_LENGTH) return `must be at most ${PIN_MAX_LENGTH} characters`;
  return undefined;
}

/** Throws a 400 naming `field` unless `pin` may be a new PIN. */
export function checkNewPin(pin: string, field = 'pin'): void {
  const problem = pinProblem(pin);
  if (problem) throw new InvalidInput(`invalid request body: ${field} ${problem}`, { [field]: problem });
}

/** The PIN's hash as stored: a new salt each time, so two patrons with one PIN have different hashes. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(pin, salt, KEY_BYTES, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `pin` is the one `stored` was hashed from; `false` for a stored text that is no scrypt hash. */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(pin, parsed.salt, parsed.key.length, parsed.cost);
  return timingSafeEqual(key, parsed.key);
}

/**
 * Spends the time a verification takes, for a card that has no PIN or does not exist, so that how long a
 * refusal takes does not tell which it was.
 */
export async function verifyNothing(pin: string): Promise<false> {
  await derive(pin, DECOY_SALT, KEY_BYTES, COST);
  return false;
}

const DECOY_SALT = randomBytes(SALT_BYTES);

interface ParsedHash {
  cost: ScryptOptions & { N: number; r: number; p: number };
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((value) => Number.isSafeInteger(value) && value > 0)) return undefined;
  if (128 * cost.N * cost.r > MAX_MEMORY) return undefined;
  const parsed = { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
  return parsed.key.length >= 16 && parsed.salt.length > 0 ? parsed : undefined;
}

function derive(pin: string, salt: Buffer, length: number, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin.normalize('NFC'), salt, length, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
