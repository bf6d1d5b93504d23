/**
 * @module The errors OAI-PMH defines (2.0, §3.6). They are answers of the protocol, not of HTTP: a response
 * of status 200 whose body holds an `<error>` element, so they are never mapped to the error shape.
 */

export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noSetHierarchy';

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OaiError';
  }
}

/**
 * After these, the response's `<request>` element carries the base URL alone: the arguments were not
 * understood, so none is repeated back (§3.2).
 */
export function echoesArguments(code: OaiErrorCode): boolean {
  return code !== 'badVerb' && code !== 'badArgument';
}
