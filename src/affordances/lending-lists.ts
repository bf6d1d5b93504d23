/**
 * @module The controls on the lending lists (branches, patron categories, item types): adding an entry,
 * changing one (making it the default among others), deleting one that nothing names.
 */
import {
  branchInputFields,
  type LendingListKind,
  type ListEntry,
  listEntryInputFields,
} from '../domain/lending-lists.js';
import { paths, type Uris } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { changeAffordances } from './change.js';

const librarians = 'for librarians';

/** What the declarations of one list differ in. */
interface ListDeclaration<Fields extends typeof listEntryInputFields | typeof branchInputFields> {
  kind: LendingListKind;
  /** `branch`, `patron category`. */
  noun: string;
  collection: { readonly text: string };
  item: { readonly text: string };
  fields: Fields;
  collectionHref(uris: Uris): string;
  itemHref(uris: Uris, id: number): string;
}

function declare<Fields extends typeof listEntryInputFields | typeof branchInputFields>(list: ListDeclaration<Fields>) {
  const { noun } = list;
  const create = affordance({
    name: 'create',
    path: list.collection,
    summary: `Add a ${noun} (made the default with is_default: true)`,
    body: { fields: list.fields, mode: 'create' },
    errors: [409, 422],
    title: `Add a ${noun}`,
    appears: `on the ${noun} list, ${librarians}`,
    allows: ({ policy, caller }) => policy.manageLending(caller),
    href: ({ uris }) => list.collectionHref(uris),
  });
  const change = changeAffordances({
    noun,
    path: list.item,
    fields: list.fields,
    errors: [409, 422],
    appears: `on a ${noun}, ${librarians}`,
    allows: ({ policy, caller }) => policy.manageLending(caller),
    href: ({ uris }, entry) => list.itemHref(uris, entry.id),
  });
  const remove = affordance<ListEntry>({
    name: 'delete',
    path: list.item,
    summary: `Delete a ${noun} that is not the default and that nothing names`,
    conditional: true,
    errors: [409],
    title: `Delete ${noun}`,
    appears: `on a ${noun} that is not the default, ${librarians} (refused while copies, users or rules name it)`,
    allows: ({ policy, caller }, entry) =>
      policy.deleteListEntry(caller, { kind: list.kind, id: entry.id, is_default: entry.is_default }),
    href: ({ uris }, entry) => list.itemHref(uris, entry.id),
  });
  return { create, change, remove };
}

export const branchControls = declare({
  kind: 'branch',
  noun: 'branch',
  collection: paths.branches,
  item: paths.branch,
  fields: branchInputFields,
  collectionHref: (uris) => uris.branches(),
  itemHref: (uris, id) => uris.branch(id),
});

export const patronCategoryControls = declare({
  kind: 'patron-category',
  noun: 'patron category',
  collection: paths.patronCategories,
  item: paths.patronCategory,
  fields: listEntryInputFields,
  collectionHref: (uris) => uris.patronCategories(),
  itemHref: (uris, id) => uris.patronCategory(id),
});

export const itemTypeControls = declare({
  kind: 'item-type',
  noun: 'item type',
  collection: paths.itemTypes,
  item: paths.itemType,
  fields: listEntryInputFields,
  collectionHref: (uris) => uris.itemTypes(),
  itemHref: (uris, id) => uris.itemType(id),
});
