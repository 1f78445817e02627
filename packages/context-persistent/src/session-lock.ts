// One writer per session: a lock file beside the journal names the process that holds it.
import { randomUUID } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { ContextLockedError, type LockOwner } from "./errors.js";

export interface SessionLock {
  readonly file: string;
  /** Removes the lock file if it is still this lock's; safe to call twice. */
  release(): Promise<void>;
}

interface LockContent extends LockOwner {
  readonly token: string;
}

/** Lock files held by this process: a lock naming our own pid may be a stale one from an earlier process that had it. */
const heldByThisProcess = new Set<string>();

// Losing a race for a stale lock more often than this means something keeps taking it: report it as held.
const ATTEMPTS = 5;

/**
 * Takes the lock or throws `ContextLockedError` naming the live holder. A lock whose process is dead is
 * taken over. The lock file is created with its content already in it (written aside, then linked into
 * place), so no one ever reads a half-written lock and mistakes a live holder for a dead one.
 */
export async function acquireSessionLock(lockFile: string, journal: string): Promise<SessionLock> {
  const content: LockContent = { pid: process.pid, hostname: hostname(), token: randomUUID() };
  let owner: LockContent | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (await createLockFile(lockFile, content)) {
      heldByThisProcess.add(lockFile);
      let released: Promise<void> | undefined;
      return { file: lockFile, release: () => (released ??= releaseLock(lockFile, content.token)) };
    }
    owner = await readLock(lockFile);
    if (owner === undefined) continue; // released meanwhile, or unreadable: try again
    if (isHeld(owner, lockFile)) throw new ContextLockedError(journal, lockFile, owner);
    await removeStaleLock(lockFile, owner);
  }
  throw new ContextLockedError(journal, lockFile, owner);
}

async function createLockFile(lockFile: string, content: LockContent): Promise<boolean> {
  const staged = `${lockFile}.${content.token}`;
  // Exclusive: the name is fresh, and a link planted there is refused rather than written through.
  await writeFile(staged, `${JSON.stringify(content)}\n`, { flag: "wx", mode: 0o600 });
  try {
    await link(staged, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(staged, { force: true });
  }
}

async function readLock(lockFile: string): Promise<LockContent | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(lockFile, "utf8"));
    const content = value as Partial<LockContent>;
    if (typeof content.pid === "number" && typeof content.hostname === "string" && typeof content.token === "string") {
      return { pid: content.pid, hostname: content.hostname, token: content.token };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  }
  // Not ours to judge: a lock file we cannot read counts as held by someone unknown.
  return { pid: -1, hostname: "an unknown host", token: "" };
}

function isHeld(owner: LockContent, lockFile: string): boolean {
  // A process on another machine (a shared folder) cannot be checked from here.
  if (owner.pid <= 0 || owner.hostname !== hostname()) return true;
  if (owner.pid === process.pid) return heldByThisProcess.has(lockFile);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Moves the stale lock aside, then checks that what moved is the lock judged stale: a racing process may
 * have taken it over in between, and its fresh lock is put back.
 */
async function removeStaleLock(lockFile: string, stale: LockContent): Promise<void> {
  const aside = `${lockFile}.stale-${randomUUID()}`;
  try {
    await rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== undefined && moved.token !== stale.token) {
    await link(aside, lockFile).catch(() => {});
  }
  await rm(aside, { force: true });
}

async function releaseLock(lockFile: string, token: string): Promise<void> {
  try {
    const current = await readLock(lockFile);
    // Someone who judged this lock stale may have taken it over; theirs is not ours to remove.
    if (current?.token === token) await rm(lockFile, { force: true });
  } finally {
    // Only now: until the file is gone, our pid in it must still read as a live holder.
    heldByThisProcess.delete(lockFile);
  }
}
