/**
 * @module The shapes of the controls every stored resource shares — create, the pair that changes
 * fields (update and edit), delete — built in one place, with the method the vocabulary gives each name.
 * Renderers decide whether to offer them (the policy's predicates); these only say what they are.
 */
import type { Control, Field } from '../hypermedia/model.js';
import { controls } from '../hypermedia/vocabulary.js';

/** Requests of these controls carry JSON (forms are the HTML view's own translation). */
const JSON_BODY = 'application/json';

/** POST a new member of the collection at `href`. */
export function createControl(href: string, title: string, fields: Field[]): Control {
  return { name: 'create', href, method: controls.create.method, title, contentType: JSON_BODY, fields };
}

/**
 * Change the fields of the resource at `href` that are sent: `update` (PUT) and `edit` (PATCH), which
 * mean the same here (the seed's PUT changes only what it carries); generic clients may prefer either.
 */
export function changeControls(href: string, noun: string, fields: Field[]): Control[] {
  return (['update', 'edit'] as const).map((name) => ({
    name,
    href,
    method: controls[name].method,
    title: `${name === 'update' ? 'Update' : 'Edit'} ${noun}`,
    contentType: JSON_BODY,
    fields,
  }));
}

/** Remove the resource at `href`. */
export function deleteControl(href: string, title: string): Control {
  return { name: 'delete', href, method: controls.delete.method, title, fields: [] };
}
