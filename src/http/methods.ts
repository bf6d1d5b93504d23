/** @module Which requests only read: they carry no body worth limiting, spend no write limit, redirect nowhere. */

/** GET, HEAD and OPTIONS: the safe methods (RFC 9110 §9.2.1) the catalogue serves. */
export function isSafe(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
