/**
 * docs/architecture.md's map holds to the code: every file and folder it names exists. It names them two
 * ways, and each is read by its own convention:
 * - the layout block: a line at the margin is written from the repository's root (`drizzle/`,
 *   `scripts/build.js`); a line indented under a folder (`src/`, `drizzle/`, `protocols/`) names an entry of it, and the names in its
 *   description are inside that entry when it is a folder (`db/ … schema/`), inside a folder whose
 *   parentheses they sit in (`html/ (view.tsx, assets/)`);
 * - in the prose and the tables, backticked: a path that begins with a folder of the root (`src/`,
 *   `drizzle/`, `docs/` …) is written from the root, any other path from src/ (`db/queries/listing.ts`),
 *   and a bare file name is beside the path named before it in the same cell or paragraph
 *   (`src/formats/<format>.ts` (negotiation: `registry.ts`)); `<name>` stands for any file of a folder.
 * A name ending in `/` must be a folder, one with an extension a file, a module written without its
 * extension (`db/migrate`) a `.ts` file or a folder.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENT = 'docs/architecture.md';
/** Folders at the root: a path that begins with one is written from the root, any other from src/. */
const ROOT_FOLDERS = ['src/', 'drizzle/', 'scripts/', 'docs/', 'patches/', 'test/'];
/** What the build writes and the layout says is not committed. */
const BUILT = ['dist/'];
/** Libraries the document names by their own names, which read like files. */
const LIBRARIES = ['postgres.js'];
const EXTENSION = /\.(ts|tsx|js|json|sql|md)$/;
/** A name a path is made of: words, dots, dashes, and `<…>` for any file. */
const PATH = /^[\w<>.-]+(\/[\w<>.-]+)*\/?$/;

const text = readFileSync(new URL(`../${DOCUMENT}`, import.meta.url), 'utf8');

/** Whether a token is written as a path: with a folder in it, a trailing `/`, or a file's extension. */
function isPath(token: string): boolean {
  if (!PATH.test(token) || LIBRARIES.includes(token) || BUILT.includes(token) || token.startsWith('.')) return false;
  return token.includes('/') || EXTENSION.test(token);
}

/** The folder a path names or is in, with a trailing `/`. */
function folderOf(path: string): string {
  return path.endsWith('/') ? path : path.slice(0, path.lastIndexOf('/') + 1);
}

/** Whether the path exists as the document writes it (see the module's comment). */
function exists(path: string): boolean {
  const template = path.indexOf('<');
  if (template >= 0) return isFolder(folderOf(path.slice(0, template)));
  if (path.endsWith('/')) return isFolder(path);
  if (EXTENSION.test(path)) return existsSync(`${ROOT}${path}`) && statSync(`${ROOT}${path}`).isFile();
  return existsSync(`${ROOT}${path}.ts`) || isFolder(`${path}/`);
}

function isFolder(path: string): boolean {
  return existsSync(`${ROOT}${path}`) && statSync(`${ROOT}${path}`).isDirectory();
}

/** The paths of the layout block (the fenced block that begins with `src/`), from the root. */
function layoutPaths(): string[] {
  const block = /^```\n(src\/\n[\s\S]*?)^```$/m.exec(text)?.[1];
  if (block === undefined) throw new Error(`${DOCUMENT} has no layout block beginning with src/`);
  /** Each entry: its path, and its description with the lines that continue it. */
  const entries: { path: string; description: string }[] = [];
  /** The folders enclosing the line being read, each with the indentation of its name. */
  const enclosing: { indent: number; path: string }[] = [];
  for (const line of block.split('\n')) {
    // An entry's name is indented by a level of two spaces; a description's next lines by far more.
    const entry = /^((?: {2}){0,4})(\S+)(?:\s+|$)/.exec(line);
    if (entry?.[2]) {
      const indent = entry[1]?.length ?? 0;
      while ((enclosing[enclosing.length - 1]?.indent ?? -1) >= indent) enclosing.pop();
      const path = `${enclosing[enclosing.length - 1]?.path ?? ''}${entry[2]}`;
      if (path.endsWith('/')) enclosing.push({ indent, path });
      entries.push({ path, description: line.slice(entry[0].length) });
    } else if (entries.length > 0 && line.trim() !== '')
      (entries[entries.length - 1] as { description: string }).description += ` ${line.trim()}`;
  }
  return entries
    .filter(({ path }) => !BUILT.includes(path))
    .flatMap(({ path, description }) => {
      // An entry of src/ describes its own insides; a line at the margin is written from the root.
      const base = path.startsWith('src/') ? folderOf(path) : '';
      return [path, ...namesIn(description, base)];
    });
}

/**
 * The path names in a description, each resolved in `base` or, inside parentheses that follow a folder's
 * name, in that folder; one that begins with a root folder is from the root. Words joined by a slash that
 * are neither (`links/controls`) are not a path.
 */
function namesIn(description: string, base: string): string[] {
  const names: string[] = [];
  const bases = [base];
  let previous = '';
  for (const [token] of description.matchAll(/[\w<>.-]+(?:\/[\w<>.-]+)*(?:\/(?=[\s,;:)]|$))?|[()]/g)) {
    const here = bases[bases.length - 1] ?? base;
    if (token === '(') bases.push(previous.endsWith('/') ? `${here}${previous}` : here);
    else if (token === ')') bases.pop();
    else if (fromRoot(token)) names.push(token);
    else if (isPath(token) && (token.endsWith('/') || EXTENSION.test(token))) names.push(`${here}${token}`);
    previous = token;
  }
  return names;
}

/** Whether a token is a path written from the root (and not one the build writes). */
function fromRoot(token: string): boolean {
  return isPath(token) && ROOT_FOLDERS.some((folder) => token.startsWith(folder));
}

/**
 * The backticked paths outside fenced blocks, from the root. A cell of a table, a paragraph and an item
 * of a list are each a passage: a bare file name is beside the path named before it in its passage.
 */
function prosePaths(): string[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '');
  const passages = prose
    .split(/\n\s*\n|\n(?=\s*- )|\n(?=\|)/)
    .flatMap((passage) => (passage.startsWith('|') ? passage.split(/(?<!\\)\|/) : [passage]));
  const paths: string[] = [];
  for (const passage of passages) {
    let folder = 'src/';
    for (const [, token = ''] of passage.matchAll(/`([^`]+)`/g)) {
      if (!isPath(token)) continue;
      const path = fromRoot(token) ? token : token.includes('/') ? `src/${token}` : `${folder}${token}`;
      paths.push(path);
      folder = folderOf(path.replace(/<[^>]*>.*$/, ''));
    }
  }
  return paths;
}

describe(DOCUMENT, () => {
  it('the layout block names files and folders that exist', () => {
    const paths = layoutPaths();
    // The reading itself: entries of src/, names inside them, names inside a folder's parentheses.
    expect(paths).toEqual(
      expect.arrayContaining(['src/', 'src/config.ts', 'src/db/', 'src/db/schema/', 'src/http/middleware/frame.ts']),
    );
    const missing = [...new Set(paths.filter((path) => !exists(path)))];
    expect(missing, `paths the layout block of ${DOCUMENT} names that do not exist`).toEqual([]);
  });

  it('the paths named in its prose and tables exist', () => {
    const paths = prosePaths();
    // The reading itself: from the root, from src/, and beside the path named before.
    expect(paths).toEqual(
      expect.arrayContaining(['src/http/route.ts', 'src/db/queries/listing.ts', 'src/formats/registry.ts']),
    );
    const missing = [...new Set(paths.filter((path) => !exists(path)))];
    expect(missing, `paths ${DOCUMENT} names that do not exist`).toEqual([]);
  });
});
