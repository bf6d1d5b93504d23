/** @module Browser sessions: a library card and PIN, or a token, exchanged for an HttpOnly cookie. */
import { InvalidInput } from './errors.js';
import type { InputField, InputOf } from './input.js';
import { CARD_NUMBER_MAX_LENGTH } from './limits.js';
import { PIN_MAX_LENGTH } from './pin.js';

/** A person signs in with their card and PIN; scripts, tests and the operator with a token. */
export const sessionInputFields = [
  { name: 'card_number', type: 'string', required: false, maxLength: CARD_NUMBER_MAX_LENGTH, title: 'Library card' },
  { name: 'pin', type: 'string', required: false, maxLength: PIN_MAX_LENGTH, title: 'PIN' },
  { name: 'token', type: 'string', required: false, maxLength: 512, title: 'Token' },
] as const satisfies readonly InputField[];

/** What a sign-in offers as proof of who it is. */
export type Credentials = { kind: 'token'; token: string } | { kind: 'card'; cardNumber: string; pin: string };

/** The one set of credentials a valid sign-in body carries: a token, or a card number with its PIN. */
export function credentialsOf(input: InputOf<typeof sessionInputFields>): Credentials {
  const { card_number: cardNumber, pin, token } = input;
  if (token !== undefined) {
    if (cardNumber === undefined && pin === undefined) return { kind: 'token', token };
    throw invalid('token', 'is sent alone: sign in with a token, or with card_number and pin');
  }
  if (cardNumber !== undefined && pin !== undefined) return { kind: 'card', cardNumber, pin };
  if (cardNumber !== undefined) throw invalid('pin', 'is required with a card_number');
  if (pin !== undefined) throw invalid('card_number', 'is required with a pin');
  throw new InvalidInput('sign in with card_number and pin, or with a token', {
    card_number: 'is required',
    pin: 'is required',
  });
}

function invalid(field: string, problem: string): InvalidInput {
  return new InvalidInput(`invalid request body: ${field} ${problem}`, { [field]: problem });
}

/**
 * The one answer to a card number that names no card, a card without a PIN, and a wrong PIN: which it was
 * would tell a guesser which card numbers are worth guessing PINs for.
 */
export const CARD_SIGN_IN_REFUSED = 'that library card and PIN do not match';

/** The name of the token a sign-in creates for the browser session (listed among the user's tokens). */
export const SESSION_TOKEN_NAME = 'browser session';

/** The cookie that carries a signed-in browser's session token. */
export const SESSION_COOKIE = 'catalogue_session';
