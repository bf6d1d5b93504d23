/**
 * @module `text/html`: the browsable view of the same URLs. A browser's `Accept` selects it; API clients
 * keep JSON. Collections come a page at a time, successful form submissions redirect to their result
 * (post/redirect/get), errors are pages, and the stylesheet and script are served by the service itself.
 */
import { readFileSync } from 'node:fs';
import type { Asset, Format } from '../format.js';
import { errorPage, resourcePage, streamList } from './view.js';

const asset = (file: string, contentType: string): Asset => ({
  path: `/assets/${file}`,
  contentType,
  body: readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8'),
});

export const htmlFormat: Format = {
  contentType: 'text/html; charset=utf-8',
  mediaTypes: ['text/html', 'application/xhtml+xml'],
  resource: resourcePage,
  // Not reached while `alwaysPaged` holds; kept so the format stands on its own.
  stream: streamList,
  drawsPages: true,
  alwaysPaged: true,
  sendsEmptyParameters: true,
  redirectAfterWrite: true,
  error: errorPage,
  assets: [
    asset('catalogue.css', 'text/css; charset=utf-8'),
    asset('catalogue.js', 'text/javascript; charset=utf-8'),
    asset('search.js', 'text/javascript; charset=utf-8'),
    asset('desk.js', 'text/javascript; charset=utf-8'),
  ],
};
