/**
 * @module Compiles `src/` to plain JavaScript in `dist/`, which `npm start` and `npm run catalogue` run, so
 * production needs neither TypeScript nor tsx. Plain JavaScript itself: it runs before anything is built.
 *
 *   node scripts/build.js             build (`npm run build`, and `prepare`, which `npm install` runs)
 *   node scripts/build.js --if-stale  build only if a source changed since the last build (`prestart`)
 *
 * Without TypeScript installed (`npm ci --omit=dev`), an existing `dist/` is what ships and is left as it
 * is; with no `dist/` either, it stops and says how to build one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
/** Written after a successful build; its time is the build's. */
const stamp = join(dist, '.built');
/** Besides `src/`, what the compiled output depends on. */
const configFiles = ['tsconfig.json', 'tsconfig.build.json'].map((file) => join(root, file));
/** Sources tsc compiles; every other file under `src/` (the HTML view's stylesheet and script) is copied. */
const compiled = new Set(['.ts', '.tsx']);

const ifStale = process.argv.includes('--if-stale');
const tsc = findTsc();

if (!tsc) {
  if (existsSync(join(dist, 'server.js'))) process.exit(0);
  process.stderr.write(
    'dist/ is not built and TypeScript is not installed to build it.\n' +
      'Install with dev dependencies (`npm ci`, which builds dist/), then `npm prune --omit=dev` if you\n' +
      'want production dependencies only. See docs/operations.md.\n',
  );
  process.exit(1);
}
if (ifStale && !stale()) process.exit(0);
build(tsc);

function findTsc() {
  try {
    const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
    return join(dirname(manifest), 'bin', 'tsc');
  } catch {
    return undefined;
  }
}

/** Whether any source or config file, or a folder (a file added or deleted), is newer than the last build. */
function stale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return configFiles.some((file) => statSync(file).mtimeMs > built) || newestUnder(src) > built;
}

function newestUnder(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function build(tscPath) {
  // From empty, so a source deleted since the last build leaves no module behind.
  rmSync(dist, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tscPath, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('build failed: tsc found errors (above); dist/ is incomplete.\n');
    process.exit(result.status ?? 1);
  }
  cpSync(src, dist, { recursive: true, filter: (path) => !compiled.has(extname(path)) });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
