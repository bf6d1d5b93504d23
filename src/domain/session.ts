/** @module Browser sessions: a token exchanged for an HttpOnly cookie. */
import type { InputField } from './input.js';

export const sessionInputFields = [
  { name: 'token', type: 'string', required: true, maxLength: 512, title: 'Token' },
] as const satisfies readonly InputField[];

/** The name of the token a sign-in creates for the browser session (listed among the user's tokens). */
export const SESSION_TOKEN_NAME = 'browser session';

/** The cookie that carries a signed-in browser's session token. */
export const SESSION_COOKIE = 'catalogue_session';
