/**
 * @module Reading MARCXML (the MARC 21 slim schema) as it streams in, with saxes: a strict parser that
 * expands no entity of a DTD. A document type declaration is refused outright, so neither an external
 * entity (XXE) nor an entity that expands into millions (billion laughs) is ever read.
 */
import { SaxesParser, type SaxesTag } from 'saxes';
import { InvalidInput } from '../../domain/errors.js';
import type { ImportedRecord, Refusal } from '../../domain/imports/candidate.js';
import type { ReadOptions } from '../../domain/imports/reader.js';
import type { MarcField, MarcRecord } from './fields.js';
import { recordFromMarc } from './from-marc.js';

/** The records of a MARCXML document (a `<collection>` of `<record>`s, or one `<record>`), in order. */
export async function* readMarcxml(
  body: AsyncIterable<Uint8Array>,
  options: ReadOptions,
): AsyncGenerator<ImportedRecord | Refusal> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new SaxesParser({ position: true });
  const done: MarcRecord[] = [];
  let record: MarcRecord | undefined;
  let field: MarcField | undefined;
  let text: string | undefined;

  parser.on('doctype', () => {
    throw malformed(parser, 'a document type declaration (DOCTYPE) is not accepted');
  });
  parser.on('opentag', (tag: SaxesTag) => {
    const name = localName(tag.name);
    const attributes = tag.attributes as Record<string, string>;
    if (name === 'record') {
      record = { leader: '', fields: [] };
    } else if (!record) {
      return;
    } else if (name === 'leader') {
      text = '';
    } else if (name === 'controlfield') {
      field = [attributes.tag ?? ''];
      text = '';
    } else if (name === 'datafield') {
      field = [attributes.tag ?? '', `${attributes.ind1 ?? ' '}${attributes.ind2 ?? ' '}`];
    } else if (name === 'subfield' && field) {
      field.push(attributes.code ?? '');
      text = '';
    }
  });
  const collect = (chunk: string) => {
    if (text !== undefined) text += chunk;
  };
  parser.on('text', collect);
  parser.on('cdata', collect);
  parser.on('closetag', (tag: SaxesTag) => {
    const name = localName(tag.name);
    if (!record) return;
    if (name === 'leader') {
      record.leader = text ?? '';
    } else if (name === 'controlfield' && field) {
      field.push(text ?? '');
      record.fields.push(field);
      field = undefined;
    } else if (name === 'subfield' && field) {
      field.push(text ?? '');
    } else if (name === 'datafield' && field) {
      record.fields.push(field);
      field = undefined;
    } else if (name === 'record') {
      done.push(record);
      record = undefined;
    }
    text = undefined;
  });

  const write = (chunk: string) => {
    try {
      parser.write(chunk);
    } catch (error) {
      if (error instanceof InvalidInput) throw error;
      throw malformed(parser, (error as Error).message);
    }
  };
  for await (const bytes of body) {
    let chunk: string;
    try {
      chunk = decoder.decode(bytes, { stream: true });
    } catch {
      throw malformed(parser, 'the file is not UTF-8 text');
    }
    write(chunk);
    for (const each of done.splice(0)) yield recordFromMarc(each, options);
  }
  try {
    parser.close();
  } catch (error) {
    throw malformed(parser, (error as Error).message);
  }
  for (const each of done.splice(0)) yield recordFromMarc(each, options);
}

/** `marc:record` and `record` alike: MARCXML is written with and without a namespace prefix. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function malformed(parser: SaxesParser, problem: string): InvalidInput {
  // saxes starts its messages with the position already; ours name it.
  const where = /^\d+:\d+/.test(problem) ? '' : ` (line ${parser.line}, column ${parser.column})`;
  return new InvalidInput(`the file is not well-formed MARCXML${where}: ${problem}`);
}
