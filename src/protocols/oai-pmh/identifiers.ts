/**
 * @module The OAI identifiers of books: `oai:<repository id>:book/<id>`, after the OAI identifier scheme
 * (oai-identifier guidelines). The repository id is fixed by configuration, so identifiers stay the same
 * whatever host a harvester reaches the catalogue by.
 */
import { idOf } from '../../domain/limits.js';

export class OaiIdentifiers {
  private readonly prefix: string;

  constructor(readonly repositoryId: string) {
    this.prefix = `oai:${repositoryId}:book/`;
  }

  /** The identifier of a book. */
  of(bookId: number): string {
    return this.prefix + bookId;
  }

  /** The book an identifier names, or `undefined` when it names none of this repository's. */
  bookOf(identifier: string): number | undefined {
    if (!identifier.startsWith(this.prefix)) return undefined;
    return idOf(identifier.slice(this.prefix.length));
  }
}
