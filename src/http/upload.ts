/**
 * @module The file a request uploads, as a stream of bytes and the import format it is in: the body itself,
 * typed by its `Content-Type`, or the one file of an HTML form (`multipart/form-data`, read by busboy as it
 * streams), typed by its part's type or its name.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Context } from 'hono';
import {
  CatalogueError,
  InvalidInput,
  PayloadTooLarge,
  RequestAborted,
  UnsupportedMediaType,
} from '../domain/errors.js';
import { importFilesDescribed } from '../domain/imports/media-types.js';
import { mediaTypeOf } from '../domain/media-type.js';
import { formatOfFileName, formatOfMediaType, type ImportFormat, importMediaTypes } from '../imports/formats.js';

export interface Upload {
  format: ImportFormat;
  body: AsyncIterable<Uint8Array>;
}

const MULTIPART = 'multipart/form-data';

/** The uploaded file; 415 for a type no import reads, 400 for a form without a file. */
export async function uploadOf(c: Context, maxBytes: number): Promise<Upload> {
  const contentType = c.req.header('content-type') ?? '';
  const raw = c.req.raw.body;
  if (mediaTypeOf(contentType) === MULTIPART) {
    if (!raw) throw new InvalidInput('the form carries no file');
    return formFile(contentType, raw, maxBytes);
  }
  const format = formatOfMediaType(contentType);
  if (!format) throw new UnsupportedMediaType(importMediaTypes.join(', '));
  if (!raw) throw new InvalidInput('the request carries no file: send the records as its body');
  return { format, body: guarded(raw, maxBytes) };
}

/** The form's first file; any other field is ignored. */
function formFile(contentType: string, raw: ReadableStream<Uint8Array>, maxBytes: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fields: 20, fieldSize: 1024 } });
    } catch {
      reject(new InvalidInput('the form\u2019s Content-Type has no boundary'));
      return;
    }
    parser.on('file', (_name, stream, info) => {
      const format = formatOfMediaType(info.mimeType) ?? formatOfFileName(info.filename ?? '');
      if (!format) {
        stream.resume();
        reject(new UnsupportedMediaType(`a file of ${importMediaTypes.join(', ')}: ${importFilesDescribed}`));
        return;
      }
      resolve({ format, body: guarded(stream, maxBytes) });
    });
    parser.on('error', () => reject(new InvalidInput('the form is not well-formed multipart/form-data')));
    parser.on('close', () => reject(new InvalidInput('the form carries no file')));
    const source = Readable.from(guarded(raw, maxBytes));
    source.on('error', (error) => parser.destroy(error));
    source.pipe(parser);
  });
}

/**
 * The bytes as they arrive, counted: past `maxBytes` the upload is refused (413), a declared length having
 * been checked before. A failure to read them is the client's (the connection closed, a broken form) and
 * is answered as such, never as the service's.
 */
async function* guarded(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new PayloadTooLarge(maxBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof CatalogueError) throw error;
    throw new RequestAborted();
  }
}
