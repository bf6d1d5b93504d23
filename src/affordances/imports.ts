/** @module The control to import a file of book records: on the books collection, for librarians. */

import { RECORD_KEY_MAX_LENGTH } from '../domain/imports/candidate.js';
import { eitherOf, importFileTypes, importMediaTypes } from '../domain/imports/media-types.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';

/**
 * Importing records. The body is the file itself, as one of the media types it names (or, from the HTML
 * form, a file field of `multipart/form-data`); the optional `source` query parameter names where control
 * numbers come from for records that do not say (no 003).
 */
export const importRecords = affordance({
  name: 'import',
  path: paths.imports,
  summary:
    `Import book records: ${eitherOf(importFileTypes.map((type) => `${type.label} (${type.mediaType})`))} as the ` +
    'body; answers 200 with a report of each record (imported, matched or refused)',
  consumes: [...importMediaTypes, 'multipart/form-data'],
  upload: true,
  status: 200,
  errors: [400, 413, 415],
  parameters: [
    {
      name: 'source',
      description:
        'The MARC organization code control numbers (001) come from, for records without a 003 (and CSV rows without a `source`).',
      schema: { type: 'string', maxLength: RECORD_KEY_MAX_LENGTH },
    },
  ],
  title: 'Import records',
  appears: 'on the books collection, for librarians',
  allows: ({ policy, caller }) => policy.importRecords(caller),
  href: ({ uris }) => uris.imports(),
});
