/**
 * Processes and ports as a test outside them sees them: a process's descendants (from `ps`), whether a pid
 * still runs, whether a port still accepts connections, and waiting for any of that to change.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Every process below `pid`, read from `ps` (a server under npm, or a primary's workers). */
export function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0; ) {
    parents = table.filter(([, ppid]) => parents.includes(ppid)).map(([child]) => child);
    found.push(...parents);
  }
  return found;
}

/** The descendants of `pid` that run `script` (e.g. `src/server.ts`), leaving out helpers such as esbuild. */
export function descendantsRunning(pid: number, script: string): number[] {
  return descendants(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.endsWith(script));
    } catch {
      return false; // gone meanwhile
    }
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a TCP connection to the port is refused (nobody listens any more). */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Polls `check` every 50 ms until it holds; past `limitMs`, fails saying what it waited for. */
export async function eventually(check: () => Promise<boolean>, what: () => string, limitMs = 15_000): Promise<void> {
  for (let waited = 0; waited < limitMs; waited += 50) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what()}`);
}
