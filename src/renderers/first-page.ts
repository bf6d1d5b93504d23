/** @module Links into collections lead to their first page, so following links always finds controls. */
import { DEFAULT_PER_PAGE } from '../domain/limits.js';

export const firstPage = { page: 1, per_page: DEFAULT_PER_PAGE } as const;
