/** @module The notices to a user (librarians): what the desk reads to see what a patron was told, or was not. */
import type { Hono } from 'hono';
import { listUserNotices } from '../../db/queries/notices.js';
import { findUser } from '../../db/queries/users.js';
import { InvalidInput } from '../../domain/errors.js';
import { authorize } from '../../domain/policy.js';
import { paths } from '../../hypermedia/uris.js';
import { renderNotices } from '../../renderers/notice.js';
import type { AppEnv } from '../env.js';
import { idParam, queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

/** Notices on a page, newest first. */
export const NOTICES_PAGE_SIZE = 50;

export function noticeRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.userNotices,
    {
      GET: {
        summary:
          'The email notices to a user, newest first, a page at a time: kind, status, attempts, last error (librarians)',
        errors: [403],
        parameters: [
          {
            name: 'cursor',
            description: 'Where the page starts: from a `next` link, as given',
            schema: { type: 'string' },
          },
        ],
      },
    },
    {
      async GET(c) {
        const userId = idParam(c, 'id', 'user');
        const ctx = c.get('ctx');
        authorize(ctx.policy.seeNotices(ctx.caller));
        const before = cursorOf(queryParams(c));
        const { db } = c.get('database');
        if (!(await findUser(db, { id: userId }))) throw notFound('user', userId);
        const page = await listUserNotices(db, { userId, before, limit: NOTICES_PAGE_SIZE });
        const next = page.more ? String(page.notices.at(-1)?.id) : undefined;
        return send(c, renderNotices(userId, { notices: page.notices, next }, ctx));
      },
    },
  );
}

/** The page's start: the id of the last notice of the page before, as the `next` link gives it. */
function cursorOf(params: Record<string, string[]>): number | undefined {
  for (const name of Object.keys(params)) {
    if (name !== 'cursor') {
      throw new InvalidInput(`"${name}" is not a parameter of a user's notices; accepted: cursor`, {
        [name]: 'unknown parameter',
      });
    }
  }
  const values = params.cursor;
  if (values === undefined) return undefined;
  const [text] = values;
  if (values.length !== 1 || text === undefined || !/^[1-9]\d{0,9}$/.test(text)) {
    throw new InvalidInput('query parameter "cursor" is not a cursor of these notices; follow their links as given', {
      cursor: 'is not a cursor of these notices',
    });
  }
  return Number(text);
}
