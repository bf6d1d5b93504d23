/**
 * @module Registers the methods of one URI template. The methods not listed answer 405 with `Allow`;
 * OPTIONS answers 204 with `Allow`; HEAD comes with GET.
 */
import type { Handler, Hono } from 'hono';
import { MethodNotAllowed } from '../domain/errors.js';
import type { AppEnv } from './env.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function route(app: Hono<AppEnv>, path: string, handlers: Partial<Record<Method, Handler<AppEnv>>>): void {
  const methods = Object.keys(handlers) as Method[];
  const allowed = [...methods, ...(handlers.GET ? ['HEAD'] : []), 'OPTIONS'];
  for (const method of methods) app.on(method, path, handlers[method] as Handler<AppEnv>);
  app.options(path, (c) => c.body(null, 204, { Allow: allowed.join(', ') }));
  app.all(path, (c) => {
    throw new MethodNotAllowed(c.req.method, allowed);
  });
}
