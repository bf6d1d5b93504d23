/** The librarian token every test database is started with (as `CATALOGUE_ADMIN_TOKEN` would be). */
export const LIBRARIAN_TOKEN = 'test-librarian-token-0123456789abcdef';
