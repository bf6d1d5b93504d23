/**
 * @module A `DATABASE_URL` that lists several hosts (`postgres://u@h1:5432,h2:5432/db`, as libpq and
 * postgres.js read it) names one primary and its standbys, whichever that is at the moment: the service
 * must write to the one that accepts writes, and PostgreSQL's `target_session_attrs` says so.
 */

/** The session attributes that find the primary: `read-write` (libpq's meaning) or `primary`. */
const WRITABLE_TARGETS = ['read-write', 'primary'];

/** The URL's hosts, each with its port if given, in the order they are tried. */
function hostsOf(url: string): string[] {
  const afterScheme = url.slice(url.indexOf('://') + 3).split(/[?/]/)[0] ?? '';
  return afterScheme.slice(afterScheme.indexOf('@') + 1).split(',');
}

/**
 * The URL as the service connects with it: with several hosts, `target_session_attrs=read-write` unless it
 * names a writable target itself, so that a standby (or a primary turned read-only) is skipped. Answers a
 * message instead (to follow the variable's name) when the URL asks for something else, which would send
 * writes to a standby.
 */
export function withWritableTarget(url: string): { url: string } | { refusal: string } {
  if (hostsOf(url).length < 2) return { url };
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const asked = new URLSearchParams(query).get('target_session_attrs');
  if (asked === null) {
    const separator = !url.includes('?') ? '?' : query ? '&' : '';
    return { url: `${url}${separator}target_session_attrs=read-write` };
  }
  if (WRITABLE_TARGETS.includes(asked)) return { url };
  return {
    refusal: `lists several hosts, so it needs target_session_attrs=${WRITABLE_TARGETS.join(' or ')} (read-write when left out), got "${asked}"`,
  };
}
