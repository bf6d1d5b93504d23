/**
 * XML documents checked against an XML Schema by `xmllint --schema` (libxml2-utils), all in one run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** xmllint's complaints about the documents against the schema at `schema` (a path); empty when all are valid. */
export async function xmlSchemaErrors(schema: string, documents: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'xml-schema-'));
  try {
    const files = await Promise.all(
      documents.map(async (xml, i) => {
        const file = join(dir, `document-${i}.xml`);
        await writeFile(file, xml);
        return file;
      }),
    );
    try {
      await run('xmllint', ['--noout', '--schema', schema, ...files], { maxBuffer: 64 * 1024 * 1024 });
      return '';
    } catch (error) {
      return String((error as { stderr?: string }).stderr ?? error);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
