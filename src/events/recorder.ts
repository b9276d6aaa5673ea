import { randomUUID } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { AgentChaosEvent, EventPayload, EventSink } from "./types.js";
import {
  type AgentChaosEventV2,
  EVENT_COMPONENT_V2,
  type EventPayloadV2,
  type EventSinkV2,
} from "./types-v2.js";

export type EventListener = (event: AgentChaosEvent | AgentChaosEventV2) => void;

/** Bytes one batch holds before it is written early (a longer line is written on its own). */
const BATCH_BYTES = 256 * 1024;

/** Recorders with unwritten lines, written out if the process exits before their turn ends. */
const unwritten = new Set<Recorder>();
let exitHookInstalled = false;

function writeAllOnExit(): void {
  for (const recorder of unwritten) {
    try {
      recorder.flush();
    } catch {
      // Exiting anyway: what could not be written is lost, the file stays a valid prefix.
    }
  }
}

/**
 * The only writer of events.jsonl, with group commit. `emit` assigns the next sequence number
 * and serialises the envelope in contract order into a batch; the batch is written with one
 * synchronous `write` at the end of the event-loop turn in which the first of its events was
 * emitted (a `setImmediate`), or earlier when `flush` is called: the proxy's write barrier calls
 * it before any byte (or close) that follows an event. Lines are appended whole and in sequence
 * order, so a crash leaves a valid prefix: at most the unwritten events of one turn are missing.
 *
 * A write that fails (disk full, I/O error) never throws into the code that emitted or flushed:
 * the recorder stops writing, so the file stays a prefix of the run (its last line possibly
 * cut), and tells its write-error listeners once.
 */
export class Recorder implements EventSink, EventSinkV2 {
  readonly runId: string;
  readonly path: string;
  /** The events schema every line of this file carries (1 or 2). */
  readonly schemaVersion: 1 | 2;
  #fd: number | null;
  #sequence = 0;
  readonly #origin = performance.now();
  readonly #listeners: EventListener[] = [];
  readonly #errorListeners: ((code: string) => void)[] = [];
  #writeError: string | null = null;
  readonly #runIdJson: string;
  readonly #batch = Buffer.allocUnsafe(BATCH_BYTES);
  /** Bytes of `#batch` not written yet. */
  #used = 0;
  #turnEnd: NodeJS.Immediate | null = null;
  #stampedAt = -1;
  #stamp = "";
  readonly #writeAtTurnEnd = () => {
    this.#turnEnd = null;
    this.flush();
  };

  constructor(path: string, runId: string, schemaVersion: 1 | 2 = 1) {
    this.path = path;
    this.runId = runId;
    this.schemaVersion = schemaVersion;
    this.#runIdJson = JSON.stringify(runId);
    this.#fd = openSync(path, "a");
  }

  /** Called synchronously after each event is recorded (live terminal lines). */
  onEvent(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  /** Called once, with the error code, when a write fails. */
  onWriteError(listener: (code: string) => void): void {
    this.#errorListeners.push(listener);
  }

  /** The code of the write that failed, or null while every event was written. */
  get writeError(): string | null {
    return this.#writeError;
  }

  get lastSequence(): number {
    return this.#sequence;
  }

  /** Whole milliseconds since the recorder was created (the clock of `elapsed_ms`). */
  elapsedMs(): number {
    return Math.floor(performance.now() - this.#origin);
  }

  emit<P extends EventPayload>(payload: P): AgentChaosEvent<P>;
  emit<P extends EventPayloadV2>(payload: P): AgentChaosEventV2<P>;
  emit(payload: EventPayload | EventPayloadV2): AgentChaosEvent | AgentChaosEventV2 {
    if (this.#fd === null) throw new Error("recorder is closed");
    const now = Date.now();
    if (now !== this.#stampedAt) {
      this.#stampedAt = now;
      this.#stamp = new Date(now).toISOString();
    }
    const event = {
      schema_version: this.schemaVersion,
      event_id: randomUUID(),
      run_id: this.runId,
      sequence: this.#sequence + 1,
      timestamp: this.#stamp,
      elapsed_ms: this.elapsedMs(),
      type: payload.kind,
      component: EVENT_COMPONENT_V2[payload.kind],
      payload,
    } as AgentChaosEvent | AgentChaosEventV2;
    // The envelope by hand, in contract order (the same text JSON.stringify(event) gives):
    // only the payload goes through the generic serialiser.
    this.#append(
      `{"schema_version":${this.schemaVersion},"event_id":"${event.event_id}","run_id":${this.#runIdJson},"sequence":${event.sequence},"timestamp":"${event.timestamp}","elapsed_ms":${event.elapsed_ms},"type":"${event.type}","component":"${event.component}","payload":${JSON.stringify(payload)}}\n`,
    );
    this.#sequence = event.sequence;
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  /** Whether recorded events wait for their write (at the end of the turn, or `flush`). */
  hasUnwritten(): boolean {
    return this.#used > 0;
  }

  /**
   * Writes every recorded event not written yet (one `write`, done when this returns). Cheap
   * when there is none. Never throws: a failed write is reported to the write-error listeners.
   */
  flush(): void {
    if (this.#used === 0) return;
    const length = this.#used;
    this.#used = 0;
    unwritten.delete(this);
    this.#writeAll(this.#batch, length);
  }

  close(): void {
    if (this.#fd === null) return;
    if (this.#turnEnd !== null) clearImmediate(this.#turnEnd);
    this.#turnEnd = null;
    this.flush();
    unwritten.delete(this);
    const fd = this.#fd;
    this.#fd = null;
    try {
      closeSync(fd);
    } catch {
      // Every line was already written (or the failure reported); closing can lose nothing more.
    }
  }

  /** Adds one line to the batch; a line longer than a whole batch is written on its own. */
  #append(line: string): void {
    if (this.#writeError !== null) return;
    // Up to 3 UTF-8 bytes per UTF-16 unit: the exact length is only needed near the limit.
    if (line.length * 3 > BATCH_BYTES - this.#used) {
      if (Buffer.byteLength(line, "utf8") > BATCH_BYTES - this.#used) {
        this.flush();
        if (line.length * 3 > BATCH_BYTES) {
          const bytes = Buffer.from(line, "utf8");
          this.#writeAll(bytes, bytes.length);
          return;
        }
      }
    }
    if (this.#used === 0) {
      unwritten.add(this);
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.on("exit", writeAllOnExit);
      }
    }
    this.#used += this.#batch.write(line, this.#used, "utf8");
    this.#turnEnd ??= setImmediate(this.#writeAtTurnEnd);
  }

  #writeAll(bytes: Buffer, length: number): void {
    if (this.#writeError !== null) return;
    try {
      let written = 0;
      while (written < length) written += writeSync(this.#fd as number, bytes, written, length - written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      const failure = typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "EIO";
      this.#writeError = failure;
      // Told after the write that failed, so no listener runs inside an emit or a flush.
      for (const listener of this.#errorListeners) queueMicrotask(() => listener(failure));
    }
  }
}
