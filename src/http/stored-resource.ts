/**
 * @module What every stored resource answers the same way (read, create, change under `If-Match`, delete),
 * each write through the affordance declared for it, whose predicate allows it and whose body it validates.
 */
import type { Context, Handler } from 'hono';
import type { Affordance } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import type { Db } from '../db/client.js';
import { NotFound, PreconditionFailed } from '../domain/errors.js';
import type { Resource } from '../hypermedia/model.js';
import { readJson } from './body.js';
import type { AppEnv } from './env.js';
import { idParam } from './params.js';
import { ifMatchVersions, writeIfMatch } from './preconditions.js';
import { send, sendCreated, sendDeleted } from './respond.js';

export interface StoredResource<Stored extends { version: number }, Input> {
  /** What it is called in messages (`book 12 not found`). */
  kind: string;
  find(db: Db, id: number): Promise<Stored | undefined>;
  update(db: Db, params: { id: number; changes: Partial<Input>; versions?: number[] }): Promise<Stored | undefined>;
  render(stored: Stored, ctx: RenderContext): Resource;
  /** The documents a write of it made stale (`renderers/invalidations.ts`), as the write answered it. */
  invalidates(ctx: RenderContext, stored: Stored): string[];
}

export interface CreatableResource<Stored extends { id: number; version: number }, Input>
  extends StoredResource<Stored, Input> {
  insert(db: Db, input: Input): Promise<Stored>;
  /** Its own URI, the `Location` of a 201. */
  uri(ctx: RenderContext, stored: Stored): string;
}

export interface DeletableResource<Stored extends { version: number }> {
  kind: string;
  find(db: Db, id: number): Promise<Stored | undefined>;
  /** Deletes it at one of the versions, if given; answers whether a row went. */
  remove(db: Db, params: { id: number; versions?: number[] }): Promise<boolean>;
  /** Where a client goes next (the collection). */
  next(ctx: RenderContext): string;
  /** The documents its deletion made stale. */
  invalidates(ctx: RenderContext, stored: Stored): string[];
}

export function notFound(kind: string, id: number): NotFound {
  return new NotFound(`${kind} ${id} not found`);
}

/** GET of one: the resource as this caller sees it, or 404. */
export function readHandler<Stored extends { version: number }, Input>(
  resource: StoredResource<Stored, Input>,
): Handler<AppEnv> {
  return async function read(c: Context<AppEnv>) {
    const id = idParam(c, 'id', resource.kind);
    const stored = await resource.find(c.get('database').db, id);
    if (!stored) throw notFound(resource.kind, id);
    return send(c, resource.render(stored, c.get('ctx')));
  };
}

/**
 * POST to the collection: 201 with the new resource, its `Location` and, the body being that resource,
 * its `Content-Location`.
 */
export function createHandler<Stored extends { id: number; version: number }, Input>(
  resource: CreatableResource<Stored, Input>,
  create: Affordance<undefined, Input>,
): Handler<AppEnv> {
  return async function createOne(c: Context<AppEnv>) {
    const ctx = c.get('ctx');
    create.authorize(ctx, undefined);
    const input = create.validate(await readJson(c));
    const stored = await resource.insert(c.get('database').db, input);
    return sendCreated(c, resource.render(stored, ctx), resource.uri(ctx, stored), resource.invalidates(ctx, stored));
  };
}

/**
 * PUT and PATCH alike: the fields sent change, the answer is the whole resource. Who may change it does
 * not depend on its state, so the caller is asked before it is read (a member learns nothing of ids).
 */
export function changeHandler<Stored extends { version: number }, Input>(
  resource: StoredResource<Stored, Input>,
  change: Affordance<{ id: number }, Partial<Input>>,
): Handler<AppEnv> {
  return async function changeOne(c: Context<AppEnv>) {
    const id = idParam(c, 'id', resource.kind);
    const ctx = c.get('ctx');
    const { db } = c.get('database');
    change.authorize(ctx, { id });
    const stored = await writeIfMatch(c.req.header('if-match'), {
      find: () => resource.find(db, id),
      notFound: () => notFound(resource.kind, id),
      write: async (versions) => {
        const changes = change.validate(await readJson(c));
        return resource.update(db, { id, changes, ...(versions && { versions }) });
      },
    });
    return send(c, resource.render(stored, ctx), { invalidates: resource.invalidates(ctx, stored) });
  };
}

/** DELETE: allowed by the resource's own predicate, conditional on `If-Match` if given. */
export function deleteHandler<Stored extends { version: number }>(
  resource: DeletableResource<Stored>,
  deletion: Affordance<Stored>,
): Handler<AppEnv> {
  return async function remove(c: Context<AppEnv>) {
    const id = idParam(c, 'id', resource.kind);
    const ctx = c.get('ctx');
    const { db } = c.get('database');
    const stored = await resource.find(db, id);
    if (!stored) throw notFound(resource.kind, id);
    deletion.authorize(ctx, stored);
    // The database refuses too (a foreign key, a trigger), should the state change after the check.
    const versions = ifMatchVersions(c.req.header('if-match'));
    if (await resource.remove(db, { id, ...(versions && { versions }) })) {
      return sendDeleted(c, resource.next(ctx), resource.invalidates(ctx, stored));
    }
    throw (await resource.find(db, id)) ? new PreconditionFailed() : notFound(resource.kind, id);
  };
}
