import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite puts no lock on its directory, and two processes writing one embedded database corrupt it silently.
 * So every process that opens DATA_DIR takes this lock first: a file created exclusively and holding the
 * owner's pid. A lock whose owner is gone (killed, crashed) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `The data directory ${dataDir} is in use by another process (pid ${owner}). ` +
            'Stop the server first, or use PostgreSQL (DATABASE_URL) to run several processes.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}.`);
}
