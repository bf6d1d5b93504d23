/** @module Sparse fieldsets (`fields`): a resource's state cut down to the fields a listing asked for. */

/** Keeps only the requested fields, in the order the resource defines them. */
export function pick(state: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return state;
  return Object.fromEntries(Object.entries(state).filter(([name]) => fields.includes(name)));
}
