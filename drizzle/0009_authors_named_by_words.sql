-- `author=` now matches the words of a name through authors_search_idx (tsvector); the trigram index
-- served only the substring match it replaces. (pg_trgm stays installed: 0000 created it.)
DROP INDEX "authors_name_trgm_idx";
