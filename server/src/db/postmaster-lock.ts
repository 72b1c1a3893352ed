import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';

/**
 * The embedded PostgreSQL's lock file (`postmaster.pid`), read with Node's own modules only: main.ts checks
 * it before loading the app.
 */

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user (the `postgres` user, when we run as root).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether `pid` is a running (not zombie) PostgreSQL process working in `dir`; where that cannot be
 * told (Windows, another user's process on macOS), whether it is a live process.
 */
const isRunningPostgresOf = (pid: number, dir: string): boolean => {
  if (!isAlive(pid)) return false;
  if (process.platform === 'win32') return true;
  try {
    if (process.platform === 'linux') {
      // "pid (comm) state ...": comm may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      if (state === 'Z' || state === 'X' || !command.startsWith('postgres')) return false;
      // Every PostgreSQL process works in its data directory: a reused PID of another cluster is not ours.
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(dir);
      } catch {
        return true;
      }
    }
    const [stat = '', ...command] = execFileSync('ps', ['-p', String(pid), '-o', 'stat=,comm='], { encoding: 'utf8' }).trim().split(/\s+/);
    return stat.charAt(0) !== 'Z' && path.basename(command.join(' ')).startsWith('postgres');
  } catch {
    return false; // Gone between the two looks.
  }
};

/**
 * Who the data directory's `postmaster.pid` names: `pid`, a running PostgreSQL working there (another
 * Atrium, or one that did not stop cleanly); `stale`, a PID that is not one (a crash, SIGKILL or power loss,
 * leaves the file behind, its PID since a zombie or any other process); undefined without a lock file.
 */
const holderOf = (dir: string): { pid: number } | { stale: number } | undefined => {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined; // No lock file: a clean stop.
  }
  return Number.isInteger(pid) && pid > 0 && isRunningPostgresOf(pid, dir) ? { pid } : { stale: pid };
};

const inUse = (dir: string, pid: number) =>
  new Error(
    `the embedded PostgreSQL data directory ${dir} is in use by a running PostgreSQL (PID ${pid}): another Atrium ` +
      `with the same DATA_DIR, or one that did not stop cleanly. Stop that Atrium, or end the process (kill ${pid}), then start again.`,
  );

/**
 * Throws when a running PostgreSQL holds the data directory. main.ts asks before it loads the app, so a
 * second Atrium on the same DATA_DIR is refused at once rather than after loading every module (seconds,
 * on a busy machine).
 */
export const assertDataDirFree = (dir: string): void => {
  const holder = holderOf(dir);
  if (holder && 'pid' in holder) throw inUse(dir, holder.pid);
};

/**
 * PostgreSQL refuses to start while `postmaster.pid` names a live process, and a crash leaves the file
 * behind. A file whose PID is not a running PostgreSQL is removed; a running one really holds the directory.
 */
export const clearStaleLockFile = (dir: string, logger: Logger): void => {
  const holder = holderOf(dir);
  if (!holder) return;
  if ('pid' in holder) throw inUse(dir, holder.pid);
  logger.warn({ dir, pid: holder.stale }, 'removing a stale postmaster.pid left by a PostgreSQL that is no longer running');
  rmSync(path.join(dir, 'postmaster.pid'), { force: true });
};
