import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { basename } from "node:path";
import type { Readable } from "node:stream";
import type { CommandSpec } from "../scenario/types.js";
import { AgentChaosError } from "../support/errors.js";
import { groupAlive, signalGroup } from "../support/process-group.js";
import { LineSplitter } from "./line-splitter.js";
import { supervisor } from "./supervisor.js";

/** How a managed process ended: exit code, or the negative signal number when a signal killed it. */
export interface ProcessExit {
  readonly exitCode: number | null;
}

export interface ManagedProcessOptions {
  readonly spec: CommandSpec;
  /** Extra variables laid over the parent environment and the spec's `env`. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Variables not passed on from the parent environment (the spec's `env` may still set them). */
  readonly withheldEnv?: readonly string[];
  readonly stdoutPath: string;
  readonly stderrPath: string;
  /**
   * Called with each output line (without its newline; lines longer than 4096 characters come
   * in pieces), for terminal echo.
   */
  readonly onLine?: (stream: "out" | "err", line: string) => void;
  /**
   * Called once per log file that could not be written (disk full, I/O error) with the file's
   * name and the error code; the output is still drained (and echoed) so the process never blocks.
   */
  readonly onOutputError?: (file: string, code: string) => void;
  /** Called on each chunk of output from either stream (a managed dependency's readiness hint). */
  readonly onOutput?: () => void;
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
 * leader of its own process group so that stopping it stops everything it started. The group
 * is registered with the supervisor from the moment it exists until it has ended, so that not
 * even a SIGKILL of the runner can leave it behind.
 */
/** The parent environment without the withheld variables. */
function inheritedEnv(withheld: readonly string[]): NodeJS.ProcessEnv {
  if (withheld.length === 0) return process.env;
  const env = { ...process.env };
  for (const name of withheld) delete env[name];
  return env;
}

export class ManagedProcess {
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  readonly #child: ChildProcess;
  readonly #outputClosed: Promise<void>;
  #stopRequested = false;

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
    supervisor.ensureRunning();
    let child: ChildProcess;
    try {
      child = spawn(spec.command[0], spec.command.slice(1), {
        cwd: spec.cwd,
        env: {
          ...inheritedEnv(options.withheldEnv ?? []),
          ...spec.env,
          ...options.extraEnv,
          ...supervisor.environment,
        },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
        shell: false,
      });
    } catch (error) {
      closeLogs();
      throw new SpawnError((error as NodeJS.ErrnoException).code ?? "EINVAL");
    }
    const pgid = child.pid;
    if (pgid !== undefined) supervisor.register(pgid);
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
      if (pgid !== undefined) supervisor.release(pgid);
      throw new SpawnError(spawned ?? "EINVAL");
    }
    child.on("error", () => {
      // Errors after a successful spawn (a signal to an exited process) change nothing.
    });
    const { onLine, onOutputError, onOutput } = options;
    const outputClosed = Promise.all([
      capture(child.stdout as Readable, stdoutFd, {
        onLine: onLine === undefined ? undefined : (line) => onLine("out", line),
        onError: (code) => onOutputError?.(basename(options.stdoutPath), code),
        onData: onOutput,
      }),
      capture(child.stderr as Readable, stderrFd, {
        onLine: onLine === undefined ? undefined : (line) => onLine("err", line),
        onError: (code) => onOutputError?.(basename(options.stderrPath), code),
        onData: onOutput,
      }),
    ]).then(() => undefined);
    const managed = new ManagedProcess(child, child.pid, exited, outputClosed);
    // A leader that ends alone releases its group at once; one that leaves processes behind
    // keeps it registered until `stop` or `reap` has ended them.
    void exited.then(() => {
      if (!groupAlive(managed.pid)) supervisor.release(managed.pid);
    });
    return managed;
  }

  /**
   * Stops the whole process group: SIGTERM, up to 2 s for every member to go, then SIGKILL.
   * `force` skips the grace period. Resolves when the leader has exited and its output is flushed.
   */
  async stop(force?: AbortSignal): Promise<ProcessExit> {
    this.#stopRequested = true;
    await terminateGroup(this.pid, this.#leader(), force);
    const exit = await this.exited;
    supervisor.release(this.pid);
    await this.#drainOutput();
    return exit;
  }

  /** Waits for the leader's exit, then ends whatever it left behind in its group. */
  async reap(force?: AbortSignal): Promise<ProcessExit> {
    const exit = await this.exited;
    this.#stopRequested = true;
    if (groupAlive(this.pid)) await terminateGroup(this.pid, this.#leader(), force);
    supervisor.release(this.pid);
    await this.#drainOutput();
    return exit;
  }

  /** The group's leader as `terminateGroup` watches it. */
  #leader(): GroupLeader {
    const child = this.#child;
    return { running: () => child.exitCode === null && child.signalCode === null, exited: this.exited };
  }

  /** Whether `stop` or `reap` was called: an exit before that was the process's own doing. */
  get stopRequested(): boolean {
    return this.#stopRequested;
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

/** A group's leader: whether it still runs (not yet reaped), and its exit. */
interface GroupLeader {
  readonly running: () => boolean;
  readonly exited: Promise<unknown>;
}

/**
 * SIGTERM to the group, up to 2 s for every member to go, then SIGKILL. While the leader runs
 * the group is alive without looking further, and its exit is the usual moment the group
 * empties: the wait ends right then. After it, the group is looked at every 25 ms (the system
 * call that says a group is gone is cheap; only a group with members left is scanned).
 */
async function terminateGroup(pgid: number, leader: GroupLeader, force?: AbortSignal): Promise<void> {
  const alive = (): boolean => leader.running() || groupAlive(pgid);
  if (!alive()) return;
  signalGroup(pgid, force?.aborted ? "SIGKILL" : "SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while (alive() && Date.now() < deadline && !force?.aborted) {
    await pause(POLL_MS, leader.running() ? leader.exited : null);
  }
  if (alive()) signalGroup(pgid, "SIGKILL");
}

/** Waits `ms`, or until `until` settles; leaves no timer behind. */
async function pause(ms: number, until: Promise<unknown> | null): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const tick = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await (until === null ? tick : Promise.race([tick, until]));
  clearTimeout(timer);
}

/**
 * Writes a child's output stream raw to its log file and, when asked, line by line to `onLine`.
 * A failed write (disk full, I/O error) is reported once and ends the logging, never the
 * draining: the child must not block on a full pipe, and the echo goes on.
 */
function capture(
  stream: Readable,
  fd: number,
  handlers: {
    onLine: ((line: string) => void) | undefined;
    onError: (code: string) => void;
    onData?: (() => void) | undefined;
  },
): Promise<void> {
  const splitter = handlers.onLine === undefined ? null : new LineSplitter(handlers.onLine);
  let logging = true;
  return new Promise((resolve) => {
    stream.on("data", (chunk: Buffer) => {
      if (logging) {
        try {
          let written = 0;
          while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written);
        } catch (error) {
          logging = false;
          handlers.onError(errorCode(error));
        }
      }
      splitter?.push(chunk);
      handlers.onData?.();
    });
    stream.once("close", () => {
      splitter?.end();
      try {
        closeSync(fd);
      } catch (error) {
        if (logging) handlers.onError(errorCode(error));
      }
      resolve();
    });
  });
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "EIO";
}
