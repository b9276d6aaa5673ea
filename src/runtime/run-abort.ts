import type { EventSink, RunErrorReason } from "../events/types.js";
import { AgentChaosError } from "../support/errors.js";
import { errorLabel } from "./error-label.js";

/** Why a run stopped early by itself. `file` is set when an artifact could not be written. */
export interface RunFailure {
  readonly reason: RunErrorReason;
  readonly message: string;
  readonly file: string | null;
}

/**
 * An artifact of the run could not be written (disk full, I/O error). The run was stopped,
 * every process ended and the events written until then kept; the message names the file and
 * the error code, nothing else.
 */
export class RunIoError extends AgentChaosError {
  readonly file: string;
  readonly runDir: string;
  constructor(message: string, file: string, runDir: string) {
    super("RUN_IO_FAILED", message);
    this.file = file;
    this.runDir = runDir;
  }
}

/**
 * Stops a run from inside, for a reason that is not an interruption: a managed dependency that
 * died, an artifact that could not be written. The first failure wins: it is recorded as
 * `RUN_ERROR` at the moment it happens (while the run is still recording), and `signal` aborts
 * so that every step stops as it would on an interruption.
 */
export class RunAbort {
  readonly #controller = new AbortController();
  readonly #sink: EventSink;
  #failure: RunFailure | null = null;
  #recording = true;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get failure(): RunFailure | null {
    return this.#failure;
  }

  fail(reason: RunErrorReason, message: string, file: string | null = null): void {
    if (this.#failure !== null) return;
    this.#failure = { reason, message, file };
    if (this.#recording) this.#sink.emit({ kind: "RUN_ERROR", reason_code: reason, message });
    this.#controller.abort();
  }

  /** An artifact (`stdout.log`, `events.jsonl`, …) could not be written. */
  ioFailure(file: string, code: string): void {
    this.fail("INTERNAL_ERROR", `could not write ${file} (${code})`, file);
  }

  /** The run's events are complete (RUN_COMPLETED comes next): later failures are not recorded. */
  stopRecording(): void {
    this.#recording = false;
  }

  /** Throws `RunIoError` when an artifact could not be written. */
  throwIfIoFailed(runDir: string): void {
    const failure = this.#failure;
    if (failure?.file != null) throw new RunIoError(failure.message, failure.file, runDir);
  }
}

/** Runs the creation of one artifact; a failure becomes `RunIoError` naming the file. */
export async function createArtifact<T>(
  runDir: string,
  file: string,
  create: () => Promise<T> | T,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    throw new RunIoError(`could not write ${file} (${errorLabel(error)})`, file, runDir);
  }
}
