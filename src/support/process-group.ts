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
 */
export function groupAlive(pgid: number): boolean {
  // A group with no member at all (not even a zombie) is gone: one system call says so, and
  // that is the usual answer once a leader has been reaped. Only a group that still has a
  // member needs the scan of /proc, to tell live members from zombies.
  if (!groupHasMember(pgid)) return false;
  if (hasProc) {
    for (const entry of readdirSync("/proc")) {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
      if (procStat(entry)?.pgrp === pgid) return true;
    }
    return false;
  }
  return true;
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
