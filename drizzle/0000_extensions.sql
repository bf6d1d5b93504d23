-- Trigram index support for the case-insensitive substring match of the `author` listing parameter.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
