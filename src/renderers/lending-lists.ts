/** @module Renders the lending lists (branches, patron categories, item types) and their entries. */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { branchControls, itemTypeControls, patronCategoryControls } from '../affordances/lending-lists.js';
import type { LendingListKind, StoredListEntry } from '../domain/lending-lists.js';
import type { Resource } from '../hypermedia/model.js';
import { firstPage, type ListingParams, type Uris } from '../hypermedia/uris.js';
import type { Collection } from './collection.js';
import { pick } from './pick.js';

/** How one list is addressed and what may be done to it. */
interface ListView {
  kind: LendingListKind;
  controls: typeof branchControls | typeof patronCategoryControls | typeof itemTypeControls;
  collection(uris: Uris, params?: ListingParams): string;
  item(uris: Uris, id: number): string;
}

export const listViews: Record<LendingListKind, ListView> = {
  branch: {
    kind: 'branch',
    controls: branchControls,
    collection: (uris, params) => uris.branches(params),
    item: (uris, id) => uris.branch(id),
  },
  'patron-category': {
    kind: 'patron-category',
    controls: patronCategoryControls,
    collection: (uris, params) => uris.patronCategories(params),
    item: (uris, id) => uris.patronCategory(id),
  },
  'item-type': {
    kind: 'item-type',
    controls: itemTypeControls,
    collection: (uris, params) => uris.itemTypes(params),
    item: (uris, id) => uris.itemType(id),
  },
};

export function renderListEntry(
  view: ListView,
  entry: StoredListEntry,
  ctx: RenderContext,
  options: { fields?: string[] | undefined; asItem?: boolean } = {},
): Resource {
  const { uris } = ctx;
  const { change, remove } = view.controls;
  const state: Record<string, unknown> = {
    id: entry.id,
    code: entry.code,
    name: entry.name,
    is_default: entry.is_default,
    ...(entry.open_days !== undefined && { open_days: entry.open_days }),
  };
  const resource: Resource = {
    kind: view.kind,
    state: pick(state, options.fields),
    links: [
      { rel: 'self', href: view.item(uris, entry.id) },
      { rel: 'collection', href: view.collection(uris, firstPage) },
      ...(view.kind === 'branch' ? [{ rel: 'closures' as const, href: uris.branchClosures(entry.id, firstPage) }] : []),
    ],
    controls: options.asItem ? [] : offered(ctx, entry, [change.update, change.edit, remove]),
  };
  resource.version = entry.version;
  return resource;
}

export function listCollection(view: ListView, ctx: RenderContext): Collection {
  return {
    itemKind: view.kind,
    uri: (params) => view.collection(ctx.uris, params),
    controls: offered(ctx, undefined, [view.controls.create]),
    links: [],
  };
}
