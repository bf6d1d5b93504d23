/**
 * @module One process at a time owns an embedded (PGlite) data directory: a second process on it would
 * hand out the same ids and overwrite the first one's writes. The owner is recorded in `catalogue.lock`.
 */

import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** A data directory held by another live process. */
export class DataDirectoryInUse extends Error {
  override name = 'DataDirectoryInUse';
}

export interface DataDirLock {
  release(): void;
}

interface Owner {
  pid: number;
  /** For the person reading the file; not consulted. */
  hostname: string;
  command: string;
  since: string;
}

const LOCK_FILE = 'catalogue.lock';

/** Lock files this process holds. */
const heldHere = new Set<string>();

/**
 * The lock file is created atomically (a hard link fails if the name exists). A lock left behind by a
 * process that is gone (kill -9, power loss) is taken over without anyone cleaning up: a lock counts only
 * while the process it names is alive.
 */
/** Takes the directory for this process, or throws `DataDirectoryInUse` naming the process that has it. */
export function lockDataDirectory(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE);
  if (heldHere.has(lockPath))
    throw new DataDirectoryInUse(`the data directory ${dataDir} is already open in this process`);
  const me: Owner = {
    pid: process.pid,
    hostname: hostname(),
    command: process.argv.slice(1).join(' '),
    since: new Date().toISOString(),
  };
  // Written in full under a private name first, so nobody ever reads a half-written lock.
  const draft = `${lockPath}.${process.pid}`;
  writeFileSync(draft, `${JSON.stringify(me)}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, lockPath);
        heldHere.add(lockPath);
        return {
          release: () => {
            heldHere.delete(lockPath);
            releaseIfMine(lockPath);
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readOwner(lockPath);
      if (owner && isAlive(owner)) {
        throw new DataDirectoryInUse(
          `the data directory ${dataDir} is in use by process ${owner.pid} (${owner.command}, since ${owner.since}); ` +
            'one process at a time can own an embedded database: stop that process first, or point ' +
            'CATALOGUE_DATA_DIR elsewhere',
        );
      }
      // The owner is gone: the lock is stale. Remove it and try again; if another process starting at
      // the same moment wins the link, the next round names it.
      try {
        unlinkSync(lockPath);
      } catch {}
    }
    throw new DataDirectoryInUse(`the data directory ${dataDir} could not be locked; is another process starting?`);
  } finally {
    unlinkSync(draft);
  }
}

function readOwner(lockPath: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8')) as Owner;
  } catch {
    // Unreadable or gone meanwhile: nobody provably owns it.
    return undefined;
  }
}

/**
 * Whether the process named by a lock still runs on this machine. A lock naming this very process was
 * left by an earlier life of the same pid (a container's server is often pid 1 every time), so it is stale.
 */
function isAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfMine(lockPath: string): void {
  if (readOwner(lockPath)?.pid !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {}
}
