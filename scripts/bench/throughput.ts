/**
 * @module Requests per second under load (wrk), each scenario as a ratio against a reference measured in
 * the same interleaved rounds: the baseline server for the catalogue's documents, the PostgreSQL path for
 * the embedded (PGlite) one.
 */
import type { Server } from './processes.js';
import { type ContenderResult, interleave, type WrkLoad, type WrkRun } from './wrk.js';

/** The name of the baseline that gathers reads, among a scenario's contenders. */
export const GATHERED_BASELINE = 'baseline-gathered';

export interface ThroughputScenario {
  key: string;
  label: string;
  /** The target for `measured / reference`. */
  target: number;
  referenceLabel: string;
}

export interface ThroughputResult extends ThroughputScenario {
  contenders: ContenderResult[];
  /** Median req/s of the measured contender over the reference's (NaN when the scenario failed). */
  ratio: number;
  /** Why the scenario has no figures; the others still run. */
  error?: string;
}

export interface Servers {
  baseline: Server;
  catalogue: Server;
  pglite?: Server;
  /** A peer a user might pick instead, measured alongside the baseline on `GET /books/{id}`. */
  peer?: Server;
  /**
   * The baseline gathering the reads of a turn into one statement as the catalogue does, measured alongside
   * on `GET /books/{id}`: the ratio to it is what the catalogue's own work per request costs.
   */
  gatheredBaseline?: Server;
}

export interface LoadSettings {
  seconds: number;
  connections: number;
  threads: number;
  rounds: number;
  ids: [number, number];
  /** Bearer tokens of a librarian (every control of a book offered) and of a member (borrowing only). */
  tokens: { librarian: string; member: string };
  /** Only the scenarios with these keys (`--only book-reads`); all when absent. */
  only?: readonly string[];
}

const json = { Accept: 'application/json' };

export async function measureThroughput(
  servers: Servers,
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<ThroughputResult[]> {
  const { baseline, catalogue, pglite, peer, gatheredBaseline } = servers;
  const load = (server: Server, path: string, headers: Record<string, string>): WrkLoad => ({
    url: server.url,
    path,
    ids: settings.ids,
    headers,
    seconds: settings.seconds,
    connections: settings.connections,
    threads: settings.threads,
  });
  const book = '/books/{id}';
  const librarian = { ...json, Authorization: `Bearer ${settings.tokens.librarian}` };
  const member = { ...json, Authorization: `Bearer ${settings.tokens.member}` };
  const halForms = { Accept: 'application/prs.hal-forms+json' };
  const html = { Accept: 'text/html' };
  /** The baseline and the catalogue, asked the same. */
  // A fresh process for each of the baseline's runs: one statement per request grows postgres.js's queue of
  // connections with every request served, so its rate would depend on how long it had been running.
  const bothAsked = (path: string, headers: Record<string, string>) => [
    { name: 'baseline', load: load(baseline, path, headers), fresh: baseline.restart },
    { name: 'catalogue', load: load(catalogue, path, headers) },
  ];
  const plan = [
    {
      scenario: scenario('book-json', '`GET /books/{id}`, JSON, anonymous', 0.85),
      contenders: [
        ...bothAsked(book, json),
        ...(gatheredBaseline ? [{ name: GATHERED_BASELINE, load: load(gatheredBaseline, book, json) }] : []),
        ...(peer ? [{ name: peer.name, load: load(peer, book, json) }] : []),
      ],
    },
    {
      scenario: scenario('book-bearer', "same, with a librarian's bearer token", 0.75),
      contenders: bothAsked(book, librarian),
    },
    {
      scenario: scenario('book-member', "same, with a member's bearer token", 0.75),
      contenders: bothAsked(book, member),
    },
    {
      scenario: scenario('book-hal-forms', 'same, as HAL-FORMS', 0.75),
      contenders: bothAsked(book, halForms),
    },
    {
      scenario: scenario('book-html', 'same, as HTML', 0.6),
      contenders: bothAsked(book, html),
    },
    {
      scenario: scenario('root', 'the root document (vs a JSON object of its size)', 0.8),
      contenders: bothAsked('/', json),
    },
    ...(pglite
      ? [
          {
            scenario: {
              key: 'pglite',
              label: 'PGlite `GET /books/{id}` (vs the PostgreSQL path)',
              target: 0.3,
              referenceLabel: 'catalogue on PostgreSQL',
            },
            contenders: [
              { name: 'catalogue', load: load(catalogue, book, json) },
              { name: 'pglite', load: load(pglite, book, json) },
            ],
          },
        ]
      : []),
  ];

  const results: ThroughputResult[] = [];
  for (const { scenario: s, contenders } of plan) {
    if (settings.only && !settings.only.includes(s.key)) continue;
    log(`  ${s.key}: ${contenders.map((c) => c.name).join(' / ')}, ${settings.rounds} rounds × ${settings.seconds} s`);
    try {
      const measured = await interleave(contenders, settings.rounds, (name: string, run: WrkRun) =>
        log(
          `    ${name.padEnd(12)} ${Math.round(run.requestsPerSecond).toString().padStart(7)} req/s  p50 ${run.latencyMs.p50.toFixed(2)} ms`,
        ),
      );
      const [reference, subject] = measured as [ContenderResult, ContenderResult];
      const result = { ...s, contenders: measured, ratio: round3(subject.median / reference.median) };
      log(`    → ${subject.name} / ${reference.name} = ${result.ratio} (target ≥ ${s.target})`);
      results.push(result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`    FAILED: ${message}`);
      results.push({ ...s, contenders: [], ratio: Number.NaN, error: message });
    }
  }
  return results;
}

function scenario(key: string, label: string, target: number): ThroughputScenario {
  return { key, label, target, referenceLabel: 'baseline (bare Hono + postgres.js)' };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
