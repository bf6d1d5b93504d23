/**
 * A patch in patches/ fits the one release it was written against: the dependency must be pinned to that
 * exact version (a range would let an install bring a release the patch no longer applies to), the
 * installed copy must be that version, and the patch must have its report for the maintainers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared: Record<string, string> = { ...manifest.dependencies, ...manifest.devDependencies };
const patches = readdirSync(join(root, 'patches'))
  .filter((file) => file.endsWith('.patch'))
  .map((file) => {
    const [, name, version] = /^(.+)\+([^+]+)\.patch$/.exec(file) ?? [];
    return { file, name: name?.replace('+', '/'), version };
  });

describe('patched dependencies', () => {
  it('there is at least one, each named <package>+<version>.patch', () => {
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(patch.name && patch.version, patch.file).toBeTruthy();
  });

  for (const { file, name, version } of patches) {
    it(`${file}: pinned exactly in package.json, installed at that version, with its upstream report`, () => {
      expect(declared[name as string]).toBe(version);
      const installed = JSON.parse(readFileSync(join(root, 'node_modules', name as string, 'package.json'), 'utf8'));
      expect(installed.version).toBe(version);
      const readme = readFileSync(join(root, 'patches', 'README.md'), 'utf8');
      const section = readme.slice(readme.indexOf(`## ${file}`));
      const report = /\(\.\.\/(docs\/upstream\/[^)]+\.md)\)/.exec(section)?.[1];
      expect(report && existsSync(join(root, report)), `patches/README.md links ${file} to its report`).toBe(true);
    });
  }
});
