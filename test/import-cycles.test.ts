/**
 * Modules that import each other, directly or around a longer loop, fail `npm run lint`: the linter
 * section of the project's own biome.json is run over two such modules (and over the same two without
 * the loop, which pass), so taking `noImportCycles` out of it, or letting type imports through, fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const biome = join(import.meta.dirname, '..', 'node_modules', '.bin', 'biome');
let dir: string;

beforeAll(async () => {
  const project = JSON.parse(await readFile(join(import.meta.dirname, '..', 'biome.json'), 'utf8'));
  dir = await mkdtemp(join(tmpdir(), 'catalogue-cycles-'));
  await writeFile(join(dir, 'biome.json'), JSON.stringify({ root: true, linter: project.linter }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Lints the given files (name → source) as `npm run lint` does: warnings fail too. */
async function lint(files: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  try {
    const { stdout, stderr } = await run(
      biome,
      ['lint', '--error-on-warnings', '--colors=off', ...Object.keys(files)],
      {
        cwd: dir,
      },
    );
    return { failed: false, output: stdout + stderr };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { failed: true, output: stdout + stderr };
  }
}

describe('import cycles', () => {
  it('fail the lint, type-only imports included', async () => {
    const { failed, output } = await lint({
      'a.ts': "import type { B } from './b.js';\n\nexport interface A {\n  b: B;\n}\n",
      'b.ts': "import type { A } from './a.js';\n\nexport interface B {\n  a?: A;\n}\n",
    });
    expect(failed).toBe(true);
    expect(output).toContain('lint/suspicious/noImportCycles');
  });

  it('are what failed it: the same modules without the loop pass', async () => {
    const { failed, output } = await lint({
      'c.ts': "import type { D } from './d.js';\n\nexport interface C {\n  d: D;\n}\n",
      'd.ts': 'export interface D {\n  n: number;\n}\n',
    });
    expect(output).not.toContain('noImportCycles');
    expect(failed).toBe(false);
  });
});
