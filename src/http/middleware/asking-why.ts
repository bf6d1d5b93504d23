/**
 * @module A request made in process (the MCP tools') may ask why the controls its document leaves out are
 * left out: the app is dispatched with a place for the refusals in its environment, which no request from
 * the network can carry, and renders into it the policy's decisions (`RenderContext.withheld`).
 */
import type { Withheld } from '../../affordances/context.js';

const WITHHELD = Symbol('controls withheld, with the decisions');

/** The environment to dispatch a request with, asking that refused controls be noted in `withheld`. */
export function askingWhy(env: unknown, withheld: Withheld): object {
  return { ...(env as object), [WITHHELD]: withheld };
}

/** Where this request asked refused controls to be noted; `undefined` when it did not ask. */
export function withheldAskedFor(env: unknown): Withheld | undefined {
  return typeof env === 'object' && env !== null ? (env as { [WITHHELD]?: Withheld })[WITHHELD] : undefined;
}
