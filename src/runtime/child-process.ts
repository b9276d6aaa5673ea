import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { constants } from "node:os";
import type { Readable } from "node:stream";
import { AgentChaosError } from "../errors.js";
import type { CommandSpec } from "../scenario/types.js";
import { groupAlive, signalGroup } from "./process-group.js";

/** How a managed process ended: exit code, or the negative signal number when a signal killed it. */
export interface ProcessExit {
  readonly exitCode: number | null;
}

export interface ManagedProcessOptions {
  readonly spec: CommandSpec;
  /** Extra variables laid over the parent environment and the spec's `env`. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly stdoutPath: string;
  readonly stderrPath: string;
  /** Called with each complete output line (without its newline), for terminal echo. */
  readonly onLine?: (stream: "out" | "err", line: string) => void;
}

/** The command could not be started; `errno` is the system's code (ENOENT, EACCES, …). */
export class SpawnError extends AgentChaosError {
  readonly errno: string;
  constructor(errno: string) {
    super("SPAWN_FAILED", `spawn ${errno}`);
    this.errno = errno;
  }
}

const GRACE_MS = 2000;
const POLL_MS = 25;
const OUTPUT_DRAIN_MS = 1000;

function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0;
}

/**
 * A child started without a shell, stdin closed, output captured raw to log files, as the
 * leader of its own process group so that stopping it stops everything it started.
 */
export class ManagedProcess {
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  readonly #child: ChildProcess;
  readonly #outputClosed: Promise<void>;

  private constructor(
    child: ChildProcess,
    pid: number,
    exited: Promise<ProcessExit>,
    outputClosed: Promise<void>,
  ) {
    this.#child = child;
    this.pid = pid;
    this.exited = exited;
    this.#outputClosed = outputClosed;
  }

  /** Spawns the command; rejects with `SpawnError` when it cannot be started (not found, bad cwd, no permission). */
  static async start(options: ManagedProcessOptions): Promise<ManagedProcess> {
    const { spec } = options;
    const stdoutFd = openSync(options.stdoutPath, "a");
    const stderrFd = openSync(options.stderrPath, "a");
    const closeLogs = (): void => {
      closeSync(stdoutFd);
      closeSync(stderrFd);
    };
    let child: ChildProcess;
    try {
      child = spawn(spec.command[0], spec.command.slice(1), {
        cwd: spec.cwd,
        env: { ...process.env, ...spec.env, ...options.extraEnv },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
        shell: false,
      });
    } catch (error) {
      closeLogs();
      throw new SpawnError((error as NodeJS.ErrnoException).code ?? "EINVAL");
    }
    const exited = new Promise<ProcessExit>((resolve) => {
      child.once("exit", (code, signal) => {
        resolve({ exitCode: code ?? (signal === null ? null : -signalNumber(signal)) });
      });
    });
    const spawned = await new Promise<string | null>((resolve) => {
      child.once("spawn", () => resolve(null));
      child.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "EINVAL"));
    });
    if (spawned !== null || child.pid === undefined) {
      closeLogs();
      throw new SpawnError(spawned ?? "EINVAL");
    }
    child.on("error", () => {
      // Errors after a successful spawn (a signal to an exited process) change nothing.
    });
    const outputClosed = Promise.all([
      capture(child.stdout as Readable, stdoutFd, (line) => options.onLine?.("out", line)),
      capture(child.stderr as Readable, stderrFd, (line) => options.onLine?.("err", line)),
    ]).then(() => undefined);
    return new ManagedProcess(child, child.pid, exited, outputClosed);
  }

  /**
   * Stops the whole process group: SIGTERM, up to 2 s for every member to go, then SIGKILL.
   * `force` skips the grace period. Resolves when the leader has exited and its output is flushed.
   */
  async stop(force?: AbortSignal): Promise<ProcessExit> {
    await terminateGroup(this.pid, this.exited, force);
    const exit = await this.exited;
    await this.#drainOutput();
    return exit;
  }

  /** Waits for the leader's exit, then ends whatever it left behind in its group. */
  async reap(force?: AbortSignal): Promise<ProcessExit> {
    const exit = await this.exited;
    if (groupAlive(this.pid)) await terminateGroup(this.pid, this.exited, force);
    await this.#drainOutput();
    return exit;
  }

  /** Output is flushed when both pipes close; a process outside the group holding them open is cut off. */
  async #drainOutput(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), OUTPUT_DRAIN_MS);
    });
    const outcome = await Promise.race([this.#outputClosed, late]);
    clearTimeout(timer);
    if (outcome === "late") {
      this.#child.stdout?.destroy();
      this.#child.stderr?.destroy();
      await this.#outputClosed;
    }
  }
}

async function terminateGroup(
  pgid: number,
  leaderExited: Promise<unknown>,
  force?: AbortSignal,
): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, force?.aborted ? "SIGKILL" : "SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  // The leader's exit is the usual moment the group empties: look again right then.
  let leaderGone = false;
  void leaderExited.then(() => {
    leaderGone = true;
  });
  while (groupAlive(pgid) && Date.now() < deadline && !force?.aborted) {
    const tick = new Promise((resolve) => setTimeout(resolve, POLL_MS));
    await (leaderGone ? tick : Promise.race([tick, leaderExited]));
  }
  if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
}

function capture(stream: Readable, fd: number, onLine: (line: string) => void): Promise<void> {
  let pending = "";
  return new Promise((resolve) => {
    stream.on("data", (chunk: Buffer) => {
      writeSync(fd, chunk);
      pending += chunk.toString("utf8");
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        onLine(pending.slice(0, newline).replace(/\r$/, ""));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    });
    stream.once("close", () => {
      if (pending !== "") onLine(pending);
      closeSync(fd);
      resolve();
    });
  });
}
