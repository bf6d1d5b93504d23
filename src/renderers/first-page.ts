/** @module Links into collections lead to their first page, so following links always finds controls. */
export { firstPage } from '../hypermedia/uris.js';
