/**
 * @module Starting and stopping the processes the benchmark measures: the catalogue server, the
 * baseline server, the catalogue CLI (to generate data). Each server is spawned as the node process
 * itself, so its PID is the one whose memory is sampled and whose SIGTERM stops it. Output goes to a log
 * file, whose tail is shown when a process fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const repoRoot = new URL('../../', import.meta.url).pathname;

/** A running server on 127.0.0.1. */
export interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
  /** Stops it and starts it again at the same URL: a fresh process, as after a deployment. */
  restart?(): Promise<void>;
}

export interface StartParams {
  name: string;
  /** argv after `node`. */
  args: string[];
  env: Record<string, string>;
  /** The environment variable the server reads its port from (default PORT). */
  portVariable?: string;
  /** Path answered 200 once the server is ready. */
  readyPath: string;
  logDir: string;
  cwd?: string;
  /** Milliseconds to wait for readiness (migrating or opening a large PGlite directory takes a while). */
  timeoutMs?: number;
  /** The port to listen on; by default one the kernel picks. */
  port?: number;
}

/**
 * V8's flags for the server, read from `npm start` (docs/operations.md, "Memory while streaming"), so that
 * the benchmark measures the server as it is started.
 */
export const SERVER_FLAGS: string[] = flagsOfScript('start');

/** V8's flags for the CLI, read from `npm run catalogue` (its imports run with them). */
export const CLI_FLAGS: string[] = flagsOfScript('catalogue');

function flagsOfScript(name: string): string[] {
  return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts[name] as string)
    .split(/\s+/)
    .filter((word) => word.startsWith('--'));
}

/**
 * Node arguments running one of the catalogue's entries (`server`, `cli`): the compiled JavaScript when a
 * build made it, else the TypeScript through tsx; each with the flags its npm script starts it with.
 */
export function catalogueEntry(name: 'server' | 'cli'): string[] {
  const flags = name === 'server' ? SERVER_FLAGS : CLI_FLAGS;
  for (const compiled of [`dist/${name}.js`, `dist/src/${name}.js`]) {
    if (existsSync(join(repoRoot, compiled))) return [...flags, join(repoRoot, compiled)];
  }
  return [...flags, '--import', 'tsx', join(repoRoot, `src/${name}.ts`)];
}

/** A port nothing listens on now (the kernel's pick), for a server about to start. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startServer(params: StartParams): Promise<Server> {
  const port = params.port ?? (await freePort());
  const logPath = join(params.logDir, `${params.name}-${port}.log`);
  const log = openSync(logPath, 'a');
  const child = spawn(process.execPath, params.args, {
    cwd: params.cwd ?? repoRoot,
    env: { ...process.env, ...params.env, [params.portVariable ?? 'PORT']: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: Server = { name: params.name, url, pid: child.pid ?? 0, stop: () => stopChild(child, exited) };
  const deadline = Date.now() + (params.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(url + params.readyPath, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await server.stop();
  throw new Error(`${params.name} did not become ready at ${url}${params.readyPath}\n${tail(logPath)}`);
}

/** A server that `restart` replaces with a fresh process at the same URL. */
export async function startRestartable(params: StartParams): Promise<Server> {
  let current = await startServer(params);
  const port = Number(new URL(current.url).port);
  const server: Server = {
    name: params.name,
    url: current.url,
    pid: current.pid,
    stop: () => current.stop(),
    async restart() {
      await current.stop();
      current = await startServer({ ...params, port });
      server.pid = current.pid;
    },
  };
  return server;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Runs the catalogue CLI to completion: its output on this terminal (a progress bar), or answered with `capture`. */
export async function runCatalogueCli(
  args: string[],
  env: Record<string, string>,
  { capture = false } = {},
): Promise<string> {
  // Its output goes to the terminal (a progress bar) unless asked for (a token it made).
  const child = spawn(process.execPath, [...catalogueEntry('cli'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`catalogue ${args.join(' ')} failed (exit ${code})`);
  return printed;
}

/** Runs a command and answers its output; undefined when it cannot run or fails (unless `anyExit`). */
export async function output(command: string, args: string[], { anyExit = false } = {}): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.stderr.on('data', (chunk) => {
      text += chunk;
    });
    child.once('error', () => resolve(undefined));
    child.once('exit', (code) => resolve(code === 0 || anyExit ? text : undefined));
  });
}

/** Current and peak resident memory of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

/** What a process that measured itself reports besides its own figures. */
export interface SelfMeasured {
  /** How long the work took. */
  seconds: number;
  /** Resident memory at rest before it, in bytes. */
  idle: number;
  /** Peak resident memory during it, in bytes. */
  peak: number;
}

/**
 * A child process of the benchmark measuring itself: `warm` loads the code paths the work takes, the process
 * rests a second, its idle RSS is read and the kernel's peak (VmHWM) reset, then `work` runs with RSS
 * sampled every 20 ms. Answers the work's figures with its seconds, idle RSS and peak.
 */
export async function measureItself<Figures extends object>(
  warm: () => Promise<unknown>,
  work: () => Promise<Figures>,
): Promise<Figures & SelfMeasured> {
  await warm();
  await sleep(1000);
  const idle = memoryOf(process.pid).rss;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not permitted: the peak is then the process's whole life's, an upper bound.
  }
  let sampled = idle;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(process.pid).rss);
  }, 20);
  const started = performance.now();
  try {
    const figures = await work();
    const seconds = (performance.now() - started) / 1000;
    return { ...figures, seconds, idle, peak: Math.max(sampled, memoryOf(process.pid).hwm) };
  } finally {
    clearInterval(sampler);
  }
}

/** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every Linux architecture node runs on. */
const USER_HZ = 100;

/** The CPU time a process has used so far, user and system, in seconds (Linux /proc/PID/stat). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields from the third on follow the command's name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

export function tail(path: string, lines = 20): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
