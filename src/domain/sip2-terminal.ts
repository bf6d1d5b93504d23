/**
 * @module A SIP2 terminal: a self-check machine or book-drop sorter that signs in to the SIP2 listener with
 * its own login and password, stands at one branch and acts with the rights of one librarian.
 */

/** The character sets a terminal's bytes may be read and written in. */
export const SIP2_CHARSETS = ['utf-8', 'iso-8859-1'] as const;
export type Sip2Charset = (typeof SIP2_CHARSETS)[number];

/** Longest login (CN) and institution id (AO) a terminal may have. */
export const SIP2_LOGIN_MAX_LENGTH = 64;

/** A terminal as operators see it: never its password or the password's hash. */
export interface Sip2Terminal {
  id: number;
  /** The login user id it sends in a 93 login (CN). */
  login: string;
  /** The institution id (AO) its answers carry. */
  institutionId: string;
  /** Whether its messages and answers carry a sequence number (AY) and checksum (AZ). */
  errorDetection: boolean;
  charset: Sip2Charset;
  /** The branch it stands at: loans are made and copies handed in there. */
  branchId: number;
  /** The librarian whose rights its transactions use. */
  userId: number;
}

/** A terminal as its login is checked: with its password's scrypt hash. */
export interface Sip2TerminalSignIn extends Sip2Terminal {
  passwordHash: string;
}

/** What is wrong with a login or institution id (a SIP2 field ends at `|`), or `undefined`. */
export function sip2FieldProblem(value: string, allowEmpty: boolean): string | undefined {
  if (!allowEmpty && value.length === 0) return 'must not be empty';
  if ([...value].length > SIP2_LOGIN_MAX_LENGTH) return `must be at most ${SIP2_LOGIN_MAX_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[|\u0000-\u001f\u007f]/.test(value)) return 'must not contain "|" or control characters';
  return undefined;
}
