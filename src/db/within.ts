/**
 * @module A query's answer, or a failure once a deadline has passed: a database cut off without its
 * connection closing would otherwise be waited for until the operating system gives up.
 */

/** The answer of `query`, or a rejection with code `ETIMEDOUT` after `deadlineMs`. */
export function within<T>(query: PromiseLike<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })), deadlineMs);
  });
  return Promise.race([Promise.resolve(query), late]).finally(() => clearTimeout(timer));
}
