/** @module A book as a harvester sees it: a header (identifier, datestamp, deleted or not) and its metadata. */

/** What a book's metadata records are made from; each metadata format maps these fields. */
export interface BookMetadata {
  id: number;
  title: string;
  publication_year: number;
  author_id: number;
  author_name: string;
  isbn: string | null;
  /** ISO 639-2/B. */
  language: string | null;
  subjects: string[];
  publisher: string | null;
}

export interface HarvestRecord {
  bookId: number;
  /** The time of its last change, to the microsecond (the position a resumption token keeps). */
  datestamp: string;
  /** The book was deleted; a deleted record has no metadata. */
  deleted: boolean;
  /** Its metadata, when read (ListRecords, GetRecord) and not deleted. */
  book?: BookMetadata;
}
