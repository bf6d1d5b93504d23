/** @module Files the formats need served (a stylesheet, a script), whatever the formats are. */
import type { Hono } from 'hono';
import type { Format } from '../../formats/format.js';
import type { AppEnv } from '../env.js';
import { route } from '../route.js';

export function assetRoutes(app: Hono<AppEnv>, formats: readonly Format[]): void {
  for (const asset of formats.flatMap((f) => f.assets ?? [])) {
    const described = {
      summary: `A file the ${asset.contentType.split(';')[0]} views use`,
      produces: asset.contentType,
      open: true,
    };
    route(
      app,
      asset.path,
      { GET: described },
      {
        GET: (c) =>
          c.body(asset.body, 200, { 'Content-Type': asset.contentType, 'Cache-Control': 'public, max-age=3600' }),
      },
    );
  }
}
