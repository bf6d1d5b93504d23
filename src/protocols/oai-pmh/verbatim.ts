/**
 * @module XML text written into an xmlbuilder2 document as it is (a metadata format that writes its record
 * as text, `marc21`), for it is already escaped and parsing it into nodes would cost more than writing it:
 * a processing instruction marks its place, and once the document is serialized each mark is replaced by
 * its text, all in one pass. A mark is never mistaken: xmlbuilder2 escapes `<` in every text and attribute,
 * a response has no comment or CDATA section, and the only other `<?` in it opens the XML declaration.
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

const TARGET = 'catalogue-verbatim';
const MARK = new RegExp(`<\\?${TARGET} (\\d+)\\?>`, 'g');

export class VerbatimXml {
  readonly #texts: string[] = [];

  /** Marks where `xml` goes: as the next child of `parent`. */
  place(parent: XMLBuilder, xml: string): void {
    parent.ins(TARGET, String(this.#texts.length));
    this.#texts.push(xml);
  }

  /** The serialized document, each mark replaced by its text. */
  fill(document: string): string {
    if (this.#texts.length === 0) return document;
    // A function, not a replacement string, so that a `$` in the text is written as it is.
    return document.replace(MARK, (_mark, index: string) => this.#texts[Number(index)] as string);
  }
}
