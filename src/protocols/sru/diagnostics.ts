/**
 * @module SRU's diagnostics (`info:srw/diagnostic/1/N`, the list SRU 1.2 and 2.0 share): what the catalogue
 * answers for a request it cannot or will not carry out, always as a diagnostic in the response, never as an
 * HTTP error. `SruDiagnostic` is thrown where a request is read and caught where it is answered.
 */

/** The diagnostics this server answers, by number, with the message the list gives each. */
export const DIAGNOSTICS = {
  1: 'General system error',
  4: 'Unsupported operation',
  5: 'Unsupported version',
  6: 'Unsupported parameter value',
  7: 'Mandatory parameter not supplied',
  10: 'Query syntax error',
  15: 'Unsupported context set',
  16: 'Unsupported index',
  19: 'Unsupported relation',
  20: 'Unsupported relation modifier',
  27: 'Empty term unsupported',
  28: 'Masking character not supported',
  36: 'Term in invalid format for index or relation',
  37: 'Unsupported boolean operator',
  38: 'Too many boolean operators in query',
  46: 'Unsupported boolean modifier',
  61: 'First record position out of range',
  66: 'Unknown schema for retrieval',
  71: 'Unsupported record packing',
  72: 'XPath retrieval unsupported',
  80: 'Sort not supported',
  110: 'Stylesheets not supported',
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/** A diagnostic as a response carries it. */
export interface Diagnostic {
  code: DiagnosticCode;
  /** What it concerns: the parameter, index, relation, schema or version (the list says which, per code). */
  details?: string | undefined;
}

export function diagnosticUri(code: DiagnosticCode): string {
  return `info:srw/diagnostic/1/${code}`;
}

/** A request the server answers with a diagnostic instead of its result. */
export class SruDiagnostic extends Error {
  override name = 'SruDiagnostic';
  readonly diagnostic: Diagnostic;

  constructor(code: DiagnosticCode, details?: string) {
    super(`${DIAGNOSTICS[code]}${details === undefined ? '' : `: ${details}`}`);
    this.diagnostic = { code, details };
  }
}
