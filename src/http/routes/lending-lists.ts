/**
 * @module The lending lists: `/branches`, `/patron-categories` and `/item-types`, each a collection and its
 * entries. Everyone signed in reads the branches (a member picks where to collect a hold); the other two,
 * and every change, are librarians'.
 */
import type { Hono } from 'hono';
import type { RenderContext } from '../../affordances/context.js';
import {
  deleteListEntry,
  findListEntry,
  insertListEntry,
  type LendingList,
  lendingLists,
  listEntriesPage,
  streamListEntries,
  updateListEntry,
} from '../../db/queries/lending-lists.js';
import type { LendingListKind, ListEntryWrite, StoredListEntry } from '../../domain/lending-lists.js';
import { branchListingSpec, listEntryListingSpec } from '../../domain/listings.js';
import { authorize, type Decision } from '../../domain/policy.js';
import { listEntryNoun } from '../../domain/refusals.js';
import { firstPage, paths } from '../../hypermedia/uris.js';
import { listCollection, listViews, renderListEntry } from '../../renderers/lending-lists.js';
import type { AppEnv } from '../env.js';
import { listHandler } from '../listing.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import {
  type CreatableResource,
  changeHandler,
  createHandler,
  type DeletableResource,
  deleteHandler,
  notFound,
} from '../stored-resource.js';
import { forgettingLendingRules } from './loan-rules.js';

export function lendingListRoutes(app: Hono<AppEnv>): void {
  listRoutes(app, 'branch', { collection: paths.branches, item: paths.branch, plural: 'branches' });
  listRoutes(app, 'patron-category', {
    collection: paths.patronCategories,
    item: paths.patronCategory,
    plural: 'patron categories',
  });
  listRoutes(app, 'item-type', { collection: paths.itemTypes, item: paths.itemType, plural: 'item types' });
}

/** Who may read a list: branches, everyone signed in; the others, librarians. */
function mayRead(kind: LendingListKind, { policy, caller }: RenderContext): Decision {
  return kind === 'branch' ? policy.seeBranches(caller) : policy.manageLending(caller);
}

function listRoutes(
  app: Hono<AppEnv>,
  kind: LendingListKind,
  at: { collection: { readonly text: string }; item: { readonly text: string }; plural: string },
): void {
  const list = lendingLists[kind];
  const view = listViews[kind];
  const { create, change, remove } = view.controls;
  const stored = storedEntry(list);
  const spec = kind === 'branch' ? branchListingSpec : listEntryListingSpec;
  const readers = kind === 'branch' ? 'everyone signed in' : 'librarians only';
  route(
    app,
    at.collection,
    { GET: { summary: `List the ${at.plural} (${readers})`, listing: spec, errors: [401, 403] }, POST: create },
    {
      GET: listHandler({
        spec,
        mayList: (ctx) => mayRead(kind, ctx),
        collection: (ctx) => listCollection(view, ctx),
        page: (db, listing) => listEntriesPage(db, list, listing),
        stream: (database, listing) => streamListEntries(database, list, listing),
        renderItem: (entry, ctx, options) => renderListEntry(view, entry, ctx, options),
      }),
      POST: forgettingLendingRules(createHandler(stored, create)),
    },
  );
  route(
    app,
    at.item,
    {
      GET: { summary: `A ${listEntryNoun(kind)} (${readers})`, errors: [401, 403] },
      PUT: change.update,
      PATCH: change.edit,
      DELETE: remove,
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        authorize(mayRead(kind, ctx));
        const id = idParam(c, 'id', stored.kind);
        const entry = await findListEntry(c.get('database').db, list, id);
        if (!entry) throw notFound(stored.kind, id);
        return send(c, renderListEntry(view, entry, ctx));
      },
      PUT: forgettingLendingRules(changeHandler(stored, change.update)),
      PATCH: forgettingLendingRules(changeHandler(stored, change.edit)),
      DELETE: forgettingLendingRules(deleteHandler(stored, remove)),
    },
  );
}

/** An entry of a list as a stored resource; what may be done to it is declared in `affordances/lending-lists.ts`. */
function storedEntry(list: LendingList) {
  const view = listViews[list.kind];
  // A change of an entry changes its list (a default moved), and the rules table that shows its name.
  const invalidates = (ctx: RenderContext) => [
    view.collection(ctx.uris),
    view.collection(ctx.uris, firstPage),
    ctx.uris.loanRules(),
    ctx.uris.loanRules(firstPage),
  ];
  return {
    kind: listEntryNoun(list.kind),
    find: (db, id) => findListEntry(db, list, id),
    insert: (db, input) => insertListEntry(db, list, input),
    update: (db, params) => updateListEntry(db, list, params),
    remove: (db, params) => deleteListEntry(db, list, params),
    uri: (ctx, entry) => view.item(ctx.uris, entry.id),
    render: (entry, ctx) => renderListEntry(view, entry, ctx),
    invalidates,
    next: (ctx) => view.collection(ctx.uris, firstPage),
  } satisfies CreatableResource<StoredListEntry, ListEntryWrite> & DeletableResource<StoredListEntry>;
}
