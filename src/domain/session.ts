/** @module Browser sessions: a token exchanged for an HttpOnly cookie. */
import type { InputField } from './input.js';

export type SessionInput = { token: string };

export const sessionInputFields: readonly InputField[] = [
  { name: 'token', type: 'string', required: true, maxLength: 512, title: 'Token' },
];

/** The cookie that carries a signed-in browser's token. */
export const SESSION_COOKIE = 'catalogue_session';
