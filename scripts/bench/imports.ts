/**
 * @module Importing MARCXML over HTTP: `POST /imports` of records generated here as the request streams
 * (the file never exists whole, here or in the server), on a server started for this alone. Measures
 * records per second and how far the server's resident memory rises above its idle level. Targets:
 * at least 2,000 records/s, at most 128 MiB over idle.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { memoryOf, type Server, sleep } from './processes.js';

export const IMPORT_RECORDS_PER_SECOND_TARGET = 2000;
export const IMPORT_GROWTH_MIB_TARGET = 128;

export interface ImportFigures {
  records: number;
  imported: number;
  bytes: number;
  seconds: number;
  recordsPerSecond: number;
  idleRssMiB: number;
  peakRssMiB: number;
  growthMiB: number;
}

const SAMPLE_EVERY_MS = 50;
/** Records per chunk of the generated body. */
const RECORDS_PER_CHUNK = 50;
const LANGUAGES = ['eng', 'ger', 'fre', 'spa', 'ita'];
const SUBJECTS = ['Fantasy fiction', 'History', 'Poetry', 'Science', 'Travel', 'Cookery'];

/** One record, as a union catalogue exports it; a thousand authors, each of many books. */
export function benchRecord(n: number): string {
  const author = n % 1000;
  const year = 1900 + (n % 120);
  return `<record><leader>00000nam a2200000 i 4500</leader>
<controlfield tag="001">bench${n}</controlfield><controlfield tag="003">BENCH</controlfield>
<controlfield tag="008">750101s${year}    enk           000 1 eng d</controlfield>
<datafield tag="041" ind1="0" ind2=" "><subfield code="a">${LANGUAGES[n % LANGUAGES.length]}</subfield></datafield>
<datafield tag="100" ind1="1" ind2=" "><subfield code="a">Writer${author}, Ann ${author % 26 < 13 ? 'B.' : 'C.'},</subfield><subfield code="d">1900-1980.</subfield></datafield>
<datafield tag="245" ind1="1" ind2="0"><subfield code="a">Imported work number ${n} :</subfield><subfield code="b">a bench record /</subfield><subfield code="c">by someone.</subfield></datafield>
<datafield tag="264" ind1=" " ind2="1"><subfield code="a">London :</subfield><subfield code="b">Bench Press ${n % 50},</subfield><subfield code="c">${year}.</subfield></datafield>
<datafield tag="650" ind1=" " ind2="0"><subfield code="a">${SUBJECTS[n % SUBJECTS.length]}.</subfield></datafield>
</record>
`;
}

/** A MARCXML collection of `records` records, produced chunk by chunk as it is read. */
export function benchCollection(records: number, from = 1): Readable {
  return Readable.from(
    (function* () {
      yield '<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n';
      for (let n = from; n < from + records; n += RECORDS_PER_CHUNK) {
        let chunk = '';
        for (let i = n; i < Math.min(n + RECORDS_PER_CHUNK, from + records); i++) chunk += benchRecord(i);
        yield chunk;
      }
      yield '</collection>\n';
    })(),
  );
}

/** Imports `records` generated records into a server started for this alone (with a long request timeout). */
export async function measureImport(server: Server, records: number, token: string): Promise<ImportFigures> {
  await (await fetch(`${server.url}/books?page=1&per_page=1`)).arrayBuffer();
  await sleep(1000);
  const idle = memoryOf(server.pid).rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(server.pid).rss);
  }, SAMPLE_EVERY_MS);
  const started = performance.now();
  let answer: { bytes: number; report: { records: number; imported: number; refused: number } };
  try {
    answer = await upload(`${server.url}/imports`, benchCollection(records), token);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const { report } = answer;
  if (report.records !== records || report.refused !== 0) {
    throw new Error(
      `the import read ${report.records} records and refused ${report.refused}, expected ${records} and 0`,
    );
  }
  const mib = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return {
    records,
    imported: report.imported,
    bytes: answer.bytes,
    seconds: Math.round(seconds * 100) / 100,
    recordsPerSecond: Math.round(records / seconds),
    idleRssMiB: mib(idle),
    peakRssMiB: mib(peak),
    growthMiB: mib(peak - idle),
  };
}

/** POSTs the body as it is produced (chunked), and reads the report. */
function upload(
  url: string,
  body: Readable,
  token: string,
): Promise<{ bytes: number; report: { records: number; imported: number; refused: number } }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/marcxml+xml',
          Accept: 'application/json',
          Authorization: `Bearer ${token}`,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.once('end', () => {
          if (response.statusCode !== 200)
            reject(new Error(`POST ${url} answered ${response.statusCode}: ${text.slice(0, 300)}`));
          else resolve({ bytes, report: JSON.parse(text) });
        });
      },
    );
    req.once('error', reject);
    body.on('data', (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
    });
    body.pipe(req);
  });
}

/**
 * One record of the bulk scenario (bulk-import.ts), as fields: the HTTP scenario's record, and an ISBN on
 * every tenth (978-0-306-…, inside the agency's ranges, unique up to a million records).
 */
export function bulkBenchFields(n: number): { leader: string; fields: string[][] } {
  const author = n % 1000;
  const year = 1900 + (n % 120);
  const fields: string[][] = [
    ['001', `bench${n}`],
    ['003', 'BENCH'],
    ['008', `750101s${year}    enk           000 1 eng d`],
  ];
  if (n % 10 === 0) fields.push(['020', '  ', 'a', isbn13(`9780306${String((n / 10) % 100000).padStart(5, '0')}`)]);
  fields.push(
    ['041', '0 ', 'a', LANGUAGES[n % LANGUAGES.length] as string],
    ['100', '1 ', 'a', `Writer${author}, Ann ${author % 26 < 13 ? 'B.' : 'C.'},`, 'd', '1900-1980.'],
    ['245', '10', 'a', `Imported work number ${n} :`, 'b', 'a bench record /', 'c', 'by someone.'],
    ['264', ' 1', 'a', 'London :', 'b', `Bench Press ${n % 50},`, 'c', `${year}.`],
    ['650', ' 0', 'a', `${SUBJECTS[n % SUBJECTS.length]}.`],
  );
  return { leader: '00000nam a2200000 i 4500', fields };
}

/** Twelve digits and their ISBN-13 check digit. */
function isbn13(twelve: string): string {
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}
