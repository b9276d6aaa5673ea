/**
 * Test files run in parallel, and a few bundled examples name fixed ports (docs/suites.md,
 * "fixed ports"). Two test files running such examples at once would fight over the port, so a
 * run of a fixed-port scenario first takes a lock per port, shared by every process on the
 * machine: a directory created by an atomic rename, holding the owner's pid. A lock whose owner
 * is gone (a killed test worker) is taken over. A lock is only ever removed by renaming it away
 * first: emptied in place, it would be an empty directory that another process's rename could
 * take while the removal still runs (Linux lets a rename replace an empty directory).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { fixedPorts } from "../../src/runtime/fixed-ports.js";
import { eventually } from "./eventually.js";

/** How long a run may wait for another test file to free its ports. */
const WAIT_MS = 120_000;

function lockPath(port: number): string {
  return join(tmpdir(), `agentchaos-test-port-${port}.lock`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Moves the lock of `port` out of the way and removes it; returns the pid it named (0 if none). */
async function removeLock(port: number): Promise<number> {
  const removed = `${lockPath(port)}.${randomUUID()}.removed`;
  try {
    await rename(lockPath(port), removed);
  } catch {
    return 0;
  }
  const owner = Number(await readFile(join(removed, "owner"), "utf8").catch(() => "0"));
  await rm(removed, { recursive: true, force: true });
  return owner;
}

async function tryLock(port: number): Promise<boolean> {
  const target = lockPath(port);
  const staged = await mkdtemp(join(tmpdir(), "agentchaos-test-port-staged-"));
  await writeFile(join(staged, "owner"), String(process.pid));
  try {
    await rename(staged, target);
    return true;
  } catch {
    await rm(staged, { recursive: true, force: true });
    const owner = Number(await readFile(join(target, "owner"), "utf8").catch(() => "0"));
    if (owner > 0 && !alive(owner)) await removeLock(port);
    return false;
  }
}

/** The fixed ports named by the scenario file a CLI call runs (`run <file>`), or none. */
export function fixedPortsOfCall(args: readonly string[], cwd: string): number[] {
  const file = args[0] === "run" ? args[1] : undefined;
  if (file === undefined || !/\.ya?ml$/.test(file)) return [];
  const path = file.startsWith("/") ? file : join(cwd, file);
  if (!existsSync(path)) return [];
  try {
    return fixedPorts(parse(readFileSync(path, "utf8")));
  } catch {
    return [];
  }
}

/** Takes the lock of every port (in ascending order); the returned function frees them. */
export async function lockPorts(ports: readonly number[]): Promise<() => Promise<void>> {
  const held: number[] = [];
  const release = async (): Promise<void> => {
    for (const port of held.splice(0)) await removeLock(port);
  };
  try {
    for (const port of [...ports].sort((a, b) => a - b)) {
      await eventually(() => tryLock(port), { timeoutMs: WAIT_MS, what: `the lock of port ${port}` });
      held.push(port);
    }
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}
