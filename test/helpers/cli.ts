import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { fixedPortsOfCall, lockPorts } from "./port-lock.js";
import { tempDir } from "./temp.js";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "dist", "bin", "agentchaos.js");

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const running = new Set<ChildProcess>();

/** Kills any CLI process a failed test left running (call from afterEach). */
export function killStrayClis(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  onStdout?: (text: string, child: ChildProcess) => void;
  /** Called once the process is spawned (to watch it or signal it). */
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Runs the built CLI as a real process. `onStdout` sees output as it arrives (to send a
 * signal at the right moment); the process is killed if it outlives `timeoutMs`. A `run` of a
 * scenario with fixed ports first holds those ports' locks, so test files running in parallel
 * never start the same fixed-port example at once.
 */
export async function runBuiltCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const ports = fixedPortsOfCall(args, options.cwd ?? ROOT);
  const release = ports.length > 0 ? await lockPorts(ports) : null;
  try {
    return await spawnCli(args, options);
  } finally {
    await release?.();
  }
}

function spawnCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      options.onStdout?.(stdout, child);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The single run folder created under an output dir. */
export function onlyRunDir(outputDir: string): string {
  const entries = readdirSync(outputDir);
  if (entries.length !== 1) throw new Error(`expected one run folder, found ${entries.length}`);
  return join(outputDir, entries[0] as string);
}

/**
 * A temp folder for the calling file's tests: fresh for each test (`each`) or shared by all of
 * them (`all`). After each test any CLI it left running is killed; the folder is removed.
 */
export function testFolder(scope: "each" | "all"): { readonly path: string } {
  let current: { path: string; remove: () => Promise<void> } | null = null;
  const create = async (): Promise<void> => {
    current = await tempDir();
  };
  const remove = async (): Promise<void> => {
    await current?.remove();
    current = null;
  };
  if (scope === "each") beforeEach(create);
  else beforeAll(create);
  afterEach(async () => {
    killStrayClis();
    if (scope === "each") await remove();
  });
  if (scope === "all") afterAll(remove);
  return {
    get path(): string {
      if (current === null) throw new Error("testFolder() is only available inside a test");
      return current.path;
    },
  };
}
