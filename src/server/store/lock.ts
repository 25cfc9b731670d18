import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DirectoryLock {
  release(): void;
}

export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is already in use by another Vitrina process (pid ${pid}). ` +
        `Stop that process, or start this one with another VITRINA_DATA_DIR. ` +
        `(For several server processes use PostgreSQL through DATABASE_URL.)`,
    );
    this.name = 'DataDirectoryInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>/vitrina.lock` with O_EXCL. A lock left by a process that died (kill -9) is
 * recognised by its pid no longer running, and taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const file = join(dir, 'vitrina.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isFinite(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirectoryInUseError(dir, owner);
      }
      if (owner === process.pid) throw new DataDirectoryInUseError(dir, owner);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${dir}`);
}
