/** Waiting for something that other processes make true: how long it took, or `Infinity` past the limit. */
export async function millisecondsUntil(condition: () => Promise<boolean>, limitMs = 5_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await condition()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Number.POSITIVE_INFINITY;
}
