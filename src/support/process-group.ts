import { readdirSync } from "node:fs";
import { readRegularFileSync } from "../support/regular-file.js";

/** A /proc/<pid>/stat line is well under a kilobyte. */
const PROC_FILE_MAX_BYTES = 64 * 1024;

/** State and process group of a live process from /proc (Linux), or null when it is gone or a zombie. */
function procStat(pid: string): { state: string; pgrp: number } | null {
  try {
    const stat = readRegularFileSync(`/proc/${pid}/stat`, PROC_FILE_MAX_BYTES).toString("utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0] ?? "";
    if (state === "Z" || state === "X") return null;
    return { state, pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

const hasProc = process.platform === "linux";

/**
 * Whether any live (non-zombie) process remains in the group. Zombies are ignored: an
 * orphan's zombie may never be reaped in a container whose init does not reap.
 * `listProcesses` lists /proc (a test takes its listing at a moment it chooses).
 */
export function groupAlive(pgid: number, listProcesses: () => string[] = listProc): boolean {
  // A group with no member at all (not even a zombie) is gone: one system call says so, and
  // that is the usual answer once a leader has been reaped. Only a group that still has a
  // member needs the scan of /proc, to tell live members from zombies.
  if (!groupHasMember(pgid)) return false;
  if (!hasProc) return true;
  // A member may start a process and end while the scan runs: the new process is not in the
  // listing the scan began with, and the member it came from is a zombie by the time it is read.
  // So the scan goes on over what each new listing adds, until one adds nothing.
  const seen = new Set<string>();
  for (let listing = 0; listing < MAX_LISTINGS; listing += 1) {
    let added = false;
    for (const entry of listProcesses()) {
      if (seen.has(entry) || entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
      seen.add(entry);
      added = true;
      if (procStat(entry)?.pgrp === pgid) return true;
    }
    if (!added) return false;
  }
  return false;
}

/** Listings of /proc one scan of a group takes at most (each reads only the processes it adds). */
const MAX_LISTINGS = 8;

function listProc(): string[] {
  return readdirSync("/proc");
}

/** Whether any process (a zombie included) is in the group: `kill(-pgid, 0)`. */
function groupHasMember(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether one process is alive and not a zombie. */
export function processAlive(pid: number): boolean {
  if (hasProc) return procStat(String(pid)) !== null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Sends a signal to every process of the group; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}
