/**
 * @module Registers the methods of one URI template (405 and OPTIONS with `Allow`; HEAD with GET), framed,
 * and records what each takes and answers in the route table the profile and OpenAPI are generated from.
 */
import type { Handler, Hono } from 'hono';
import { isAffordance } from '../affordances/affordance.js';
import type { Operation } from '../affordances/operation.js';
import { MethodNotAllowed } from '../domain/errors.js';
import { authorize } from '../domain/policy.js';
import type { Method } from '../hypermedia/vocabulary.js';
import type { AppEnv } from './env.js';
import type { Frame } from './middleware/frame.js';

/** The methods of one URI template, described. */
export type Operations = Partial<Record<Method, Operation>>;

/** One registered URI template and its methods. */
export interface RouteEntry {
  /** The path as an RFC 6570 template: `/books/{id}`. */
  path: string;
  operations: Operations;
}

const tables = new WeakMap<object, RouteEntry[]>();
const frames = new WeakMap<object, Frame>();

/** The methods HTTP defines that a route may serve or refuse (HEAD is GET's, CONNECT and TRACE never). */
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every handler registered on `app` from now on runs in `frame`. */
export function frameRoutes(app: Hono<AppEnv>, frame: Frame): void {
  frames.set(app, frame);
}

/** The routes registered on an app so far, in registration order. */
export function routesOf(app: Hono<AppEnv>): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}

/**
 * Registers `handlers` at the path of `at`, described by `operations`: one per method, no more, no fewer.
 * `at` is a template of `paths` (the one links are expanded from), whose query expression the route's
 * handlers read, or a plain path (the assets, named by their format).
 */
export function route<M extends Method>(
  app: Hono<AppEnv>,
  at: { text: string } | string,
  operations: Record<M, Operation>,
  handlers: NoInfer<Record<M, Handler<AppEnv>>>,
): void {
  const template = typeof at === 'string' ? at : at.text;
  const path = routePath(template);
  checkAffordances(template, operations);
  const methods = Object.keys(handlers) as M[];
  const frame = frameOf(
    app,
    template,
    methods.every((method) => operations[method].unauthenticated),
  );
  const allowed = [...methods, ...('GET' in handlers ? ['HEAD'] : []), 'OPTIONS'];
  for (const method of methods) {
    const operation = operations[method];
    const handler = isGated(operation) ? readGated(handlers[method]) : handlers[method];
    const alsoProduces = operation.alsoProduces && [{ mediaTypes: [operation.alsoProduces.mediaType] }];
    app.on(
      method,
      path,
      frame(handler, {
        produces: operation.produces,
        alsoProduces,
        dispatches: operation.dispatches === true,
        reads: operation.reads === true,
        upload: operation.upload === true,
      }),
    );
  }
  // What a route offers (OPTIONS, 405) is as closed as the route itself, and framed as its methods are.
  const gated = methods.some((method) => isGated(operations[method]));
  const dispatches = methods.some((method) => operations[method].dispatches === true);
  const gate = (handler: Handler<AppEnv>) => frame(gated ? readGated(handler) : handler, { dispatches });
  app.options(
    path,
    gate((c) => c.body(null, 204, { Allow: allowed.join(', ') })),
  );
  // Only the methods not served match here (Hono answers HEAD with GET's handler): a method served has a
  // single handler, which Hono runs without a middleware chain. A method HTTP does not define (PURGE)
  // matches none of them, and is answered 404 in the error shape.
  const refused = HTTP_METHODS.filter((method) => !allowed.includes(method));
  app.on(
    refused,
    path,
    gate((c) => {
      throw new MethodNotAllowed(c.req.method, allowed);
    }),
  );
  const table = tables.get(app) ?? [];
  table.push({ path: path.replace(/:(\w+)/g, '{$1}'), operations });
  tables.set(app, table);
}

/**
 * The frame of `app`'s routes. A route registered before it would run without a caller, a format or the
 * limits: that slip stops start-up. Only a route that needs none of them (the health check) may.
 */
function frameOf(app: Hono<AppEnv>, template: string, unframed: boolean): Frame {
  const frame = frames.get(app);
  if (frame) return frame;
  if (unframed) return (handler) => handler;
  throw new Error(`${template} is registered before the frame of the app's routes (see createApp)`);
}

/** A template's path as Hono routes it: `/books/{id}{?fields}` → `/books/:id`. */
export function routePath(template: string): string {
  return template.replace(/\{\?[^}]*\}$/, '').replace(/\{(\w+)\}/g, ':$1');
}

/** An affordance registered at a route must target it with the method its name has: a slip stops start-up. */
function checkAffordances(template: string, operations: Operations): void {
  for (const [method, operation] of Object.entries(operations)) {
    if (!isAffordance(operation)) continue;
    if (operation.method !== method || operation.path.text !== template) {
      throw new Error(
        `the ${operation.name} control is declared as ${operation.method} ${operation.path.text}, ` +
          `but registered as ${method} ${template}`,
      );
    }
  }
}

function isGated(operation: Operation): boolean {
  return !operation.open && !operation.unauthenticated;
}

/**
 * `handler`, first asking whether the caller may read the catalogue (anyone unless the operator closed
 * it, then signed-in callers only).
 */
function readGated(handler: Handler<AppEnv>): Handler<AppEnv> {
  return function gated(c, next) {
    const { caller, policy } = c.get('ctx');
    authorize(policy.read(caller));
    return handler(c, next);
  };
}
