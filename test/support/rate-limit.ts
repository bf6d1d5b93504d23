/** @module Reading the IETF `RateLimit` field the catalogue answers (`"search";r=2;t=60`). */

/** What the field says is left of the quota (its `r`), or undefined when there is no field or no `r`. */
export function quotaLeft(field: string | null | undefined): number | undefined {
  const left = /(?:^|;)r=(\d+)/.exec(field ?? '')?.[1];
  return left === undefined ? undefined : Number(left);
}
