/** @module The PostgreSQL `tsvector` column type, which drizzle does not ship. */
import { customType } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});
