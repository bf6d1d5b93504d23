/**
 * @module The two writes every stored resource answers the same way: changing it (PUT and PATCH alike
 * change only the fields sent, under `If-Match` if given) and deleting it. A resource kind states what
 * differs — how to find, change, delete and render it, and who may — and gets its handlers from here.
 */
import type { Context, Handler } from 'hono';
import type { Db } from '../db/client.js';
import { NotFound, PreconditionFailed } from '../domain/errors.js';
import { type InputField, validateInput } from '../domain/input.js';
import { authorize, type Decision } from '../domain/policy.js';
import type { Resource } from '../hypermedia/model.js';
import type { RenderContext } from '../renderers/context.js';
import { readJson } from './body.js';
import type { AppEnv } from './env.js';
import { idParam } from './params.js';
import { ifMatchVersions, writeIfMatch } from './preconditions.js';
import { send, sendDeleted } from './respond.js';

export interface StoredResource<Stored extends { version: number }, Input> {
  /** What it is called in messages (`book 12 not found`). */
  kind: string;
  find(db: Db, id: number): Promise<Stored | undefined>;
  /** Who may change it. */
  mayChange(ctx: RenderContext): Decision;
  fields: readonly InputField[];
  update(db: Db, params: { id: number; changes: Partial<Input>; versions?: number[] }): Promise<Stored | undefined>;
  render(stored: Stored, ctx: RenderContext): Resource;
}

export interface DeletableResource<Stored extends { version: number }> {
  kind: string;
  find(db: Db, id: number): Promise<Stored | undefined>;
  /** Who may delete it, in its current state (the same predicate that offers `delete`). */
  mayDelete(ctx: RenderContext, stored: Stored): Decision;
  /** Deletes it at one of the versions, if given; answers whether a row went. */
  remove(db: Db, params: { id: number; versions?: number[] }): Promise<boolean>;
  /** Where a client goes next (the collection). */
  next(ctx: RenderContext): string;
}

export function notFound(kind: string, id: number): NotFound {
  return new NotFound(`${kind} ${id} not found`);
}

/** PUT and PATCH alike: the fields sent change, the answer is the whole resource. */
export function changeHandler<Stored extends { version: number }, Input>(
  resource: StoredResource<Stored, Input>,
): Handler<AppEnv> {
  return async function change(c: Context<AppEnv>) {
    const id = idParam(c, 'id', resource.kind);
    const ctx = c.get('ctx');
    const { db } = c.get('database');
    authorize(resource.mayChange(ctx));
    const stored = await writeIfMatch(c.req.header('if-match'), {
      find: () => resource.find(db, id),
      notFound: () => notFound(resource.kind, id),
      write: async (versions) => {
        const changes = validateInput<Partial<Input>>(resource.fields, await readJson(c), 'change');
        return resource.update(db, { id, changes, ...(versions && { versions }) });
      },
    });
    return send(c, resource.render(stored, ctx));
  };
}

/** DELETE: allowed by the resource's own predicate, conditional on `If-Match` if given. */
export function deleteHandler<Stored extends { version: number }>(
  resource: DeletableResource<Stored>,
): Handler<AppEnv> {
  return async function remove(c: Context<AppEnv>) {
    const id = idParam(c, 'id', resource.kind);
    const ctx = c.get('ctx');
    const { db } = c.get('database');
    const stored = await resource.find(db, id);
    if (!stored) throw notFound(resource.kind, id);
    authorize(resource.mayDelete(ctx, stored));
    // The database refuses too (a foreign key, a trigger), should the state change after the check.
    const versions = ifMatchVersions(c.req.header('if-match'));
    if (await resource.remove(db, { id, ...(versions && { versions }) })) return sendDeleted(c, resource.next(ctx));
    throw (await resource.find(db, id)) ? new PreconditionFailed() : notFound(resource.kind, id);
  };
}
