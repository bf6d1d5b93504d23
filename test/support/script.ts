/**
 * A TypeScript entry point (`src/cli.ts`, `src/server.ts`, `docs/examples/*.ts`) run as its own process,
 * as `node --import tsx`, to its end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** A process started from a script, with what it wrote so far. */
export interface ScriptProcess {
  process: ChildProcess;
  /** Everything it wrote, stdout and stderr interleaved. */
  output(): string;
  /** What it wrote on stdout alone. */
  stdout(): string;
  /** What it wrote on stderr alone. */
  stderr(): string;
}

/** Starts `script` with `args`, in this process's environment with `env` over it. */
export function spawnScript(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): ScriptProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
    stderr += chunk;
  });
  return { process: child, output: () => output, stdout: () => stdout, stderr: () => stderr };
}

/** How a script ended and what it wrote. */
export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved. */
  output: string;
}

/** Runs `script` to its end (its streams closed). */
export async function runScript(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ScriptRun> {
  const run = spawnScript(script, args, env);
  const [code] = await once(run.process, 'close');
  return { code: code as number | null, stdout: run.stdout(), stderr: run.stderr(), output: run.output() };
}
