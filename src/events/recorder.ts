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

/**
 * The only writer of events.jsonl. `emit` assigns the next sequence number, serialises the
 * envelope in contract order and appends the line with a synchronous write before it
 * returns: Node runs one `emit` at a time, so the write itself is the lock, and a crash
 * leaves a valid prefix.
 *
 * A write that fails (disk full, I/O error) never throws into the code that emitted: the
 * recorder stops writing, so the file stays a prefix of the run (its last line possibly cut),
 * and tells its write-error listeners once.
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
  readonly #buffer = Buffer.allocUnsafe(64 * 1024);
  #stampedAt = -1;
  #stamp = "";

  constructor(path: string, runId: string, schemaVersion: 1 | 2 = 1) {
    this.path = path;
    this.runId = runId;
    this.schemaVersion = schemaVersion;
    this.#runIdJson = JSON.stringify(runId);
    this.#fd = openSync(path, "a");
  }

  /** Called synchronously after each event is written (live terminal lines). */
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
    this.#writeLine(
      `{"schema_version":${this.schemaVersion},"event_id":"${event.event_id}","run_id":${this.#runIdJson},"sequence":${event.sequence},"timestamp":"${event.timestamp}","elapsed_ms":${event.elapsed_ms},"type":"${event.type}","component":"${event.component}","payload":${JSON.stringify(payload)}}\n`,
    );
    this.#sequence = event.sequence;
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  #writeLine(line: string): void {
    if (this.#writeError !== null) return;
    try {
      this.#write(line);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      const failure = typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "EIO";
      this.#writeError = failure;
      // Told after the emit that failed has returned, so no listener runs inside it.
      for (const listener of this.#errorListeners) queueMicrotask(() => listener(failure));
    }
  }

  /** One synchronous write of the whole line, through a reused buffer (no allocation per event). */
  #write(line: string): void {
    const fd = this.#fd as number;
    if (line.length * 3 > this.#buffer.length) {
      writeSync(fd, line);
      return;
    }
    const length = this.#buffer.write(line, 0, "utf8");
    let written = 0;
    while (written < length) written += writeSync(fd, this.#buffer, written, length - written);
  }

  close(): void {
    if (this.#fd === null) return;
    const fd = this.#fd;
    this.#fd = null;
    try {
      closeSync(fd);
    } catch {
      // Every line was already written (or the failure reported); closing can lose nothing more.
    }
  }
}
