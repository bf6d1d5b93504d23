/** @module Browser sessions: a token exchanged for an HttpOnly cookie. */
import type { InputField } from './input.js';

export type SessionInput = { token: string };

export const sessionInputFields: readonly InputField[] = [
  { name: 'token', type: 'string', required: true, maxLength: 512, title: 'Token' },
];

/** The name of the token a sign-in creates for the browser session (listed among the user's tokens). */
export const SESSION_TOKEN_NAME = 'browser session';

/** The cookie that carries a signed-in browser's session token. */
export const SESSION_COOKIE = 'catalogue_session';
