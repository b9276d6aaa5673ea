import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { LegacyEvent, LegacyEventPayload } from "./legacy/types.js";
import { type AgentChaosEvent, EVENT_COMPONENT, type EventPayload, type EventSink } from "./types.js";
import { UuidSource } from "./uuid-source.js";
import { toSchema2Payload, toSchema3Payload } from "./wire-additions.js";
import { toSchema1Payload } from "./wire-schema-1.js";

export type EventListener = (event: LegacyEvent | AgentChaosEvent) => void;

/** Bytes one batch holds before it is written early (a longer line is written on its own). */
const BATCH_BYTES = 256 * 1024;

/** Per event type, the envelope's text from `,"type"` to `"payload":`. */
const TYPE_PARTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(EVENT_COMPONENT).map(([type, component]) => [
    type,
    `,"type":"${type}","component":"${component}","payload":`,
  ]),
);

/** An event's whole line (for a line longer than a batch). */
function lineOf(event: LegacyEvent | AgentChaosEvent, payloadJson: string): string {
  return `{"schema_version":${event.schema_version},"event_id":"${event.event_id}","run_id":${JSON.stringify(event.run_id)},"sequence":${event.sequence},"timestamp":"${event.timestamp}","elapsed_ms":${event.elapsed_ms}${TYPE_PARTS[event.type]}${payloadJson}}\n`;
}

/** Open recorders: their unwritten lines are written out if the process exits before their turn ends. */
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
 * and serialises the envelope in documented order into a batch; the batch is written with one
 * synchronous `write` at the end of the event-loop turn in which the first of its events was
 * emitted (a `setImmediate`), or earlier when `flush` is called: the proxy's write barrier calls
 * it before any byte (or close) that follows an event. Lines are appended whole and in sequence
 * order, so a crash leaves a valid prefix: at most the unwritten events of one turn are missing.
 *
 * A write that fails (disk full, I/O error) never throws into the code that emitted or flushed:
 * the recorder stops writing, so the file stays a prefix of the run (its last line possibly
 * cut), and tells its write-error listeners once.
 */
export class Recorder implements EventSink {
  readonly runId: string;
  readonly path: string;
  /** The events schema every line of this file carries (1, 2, or 3 for a run with additions). */
  readonly schemaVersion: 1 | 2 | 3;
  #fd: number | null;
  #sequence = 0;
  readonly #origin = performance.now();
  readonly #listeners: EventListener[] = [];
  readonly #errorListeners: ((code: string) => void)[] = [];
  #writeError: string | null = null;
  readonly #ids = new UuidSource();
  /** The run's wire form of an internal payload, chosen once by schema. */
  readonly #wireForm: (
    payload: LegacyEventPayload | EventPayload,
  ) => LegacyEventPayload | EventPayload | null;
  /** The envelope's constant parts, in documented order (the text JSON.stringify(event) gives). */
  readonly #opening: string;
  readonly #afterId: string;
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

  constructor(path: string, runId: string, schemaVersion: 1 | 2 | 3 = 1) {
    this.path = path;
    this.runId = runId;
    this.schemaVersion = schemaVersion;
    this.#wireForm =
      schemaVersion === 1
        ? toSchema1Payload
        : schemaVersion === 2
          ? (payload) => toSchema2Payload(payload as EventPayload)
          : (payload) => toSchema3Payload(payload as EventPayload);
    this.#opening = `{"schema_version":${schemaVersion},"event_id":"`;
    this.#afterId = `","run_id":${JSON.stringify(runId)},"sequence":`;
    this.#fd = openSync(path, "a");
    unwritten.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", writeAllOnExit);
    }
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

  emit<P extends LegacyEventPayload>(payload: P): LegacyEvent<P>;
  emit<P extends EventPayload>(payload: P): AgentChaosEvent<P>;
  emit(internal: LegacyEventPayload | EventPayload): LegacyEvent | AgentChaosEvent {
    if (this.#fd === null) throw new Error("recorder is closed");
    const wire = this.#wireForm(internal);
    const payload = wire ?? internal;
    const now = Date.now();
    if (now !== this.#stampedAt) {
      this.#stampedAt = now;
      this.#stamp = new Date(now).toISOString();
    }
    const event = {
      schema_version: this.schemaVersion,
      event_id: this.#ids.next(),
      run_id: this.runId,
      sequence: this.#sequence + 1,
      timestamp: this.#stamp,
      elapsed_ms: this.elapsedMs(),
      type: payload.kind,
      component: EVENT_COMPONENT[payload.kind],
      payload,
    } as LegacyEvent | AgentChaosEvent;
    // An event the file's schema does not have is returned unwritten: not numbered, not shown.
    if (wire === null) return event;
    this.#append(event, JSON.stringify(payload));
    this.#sequence = event.sequence;
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  /**
   * Writes every recorded event not written yet (one `write`, done when this returns). Cheap
   * when there is none. Never throws: a failed write is reported to the write-error listeners.
   */
  flush(): void {
    if (this.#used === 0) return;
    const length = this.#used;
    this.#used = 0;
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

  /**
   * Adds one event's line to the batch, written piece by piece straight into it (no line string
   * is built). A line that does not fit the batch's free space goes after a flush; one longer
   * than a whole batch is written on its own.
   */
  #append(event: LegacyEvent | AgentChaosEvent, payloadJson: string): void {
    if (this.#writeError !== null) return;
    const sequence = String(event.sequence);
    const elapsed = String(event.elapsed_ms);
    const tail = TYPE_PARTS[event.type] as string;
    // Every part but the run id and the payload is ASCII; those two may take 3 bytes a unit.
    const most =
      this.#opening.length +
      36 +
      this.#afterId.length * 3 +
      sequence.length +
      14 +
      event.timestamp.length +
      15 +
      elapsed.length +
      tail.length +
      payloadJson.length * 3 +
      2;
    if (most > BATCH_BYTES - this.#used) {
      this.flush();
      if (most > BATCH_BYTES) {
        const line = Buffer.from(lineOf(event, payloadJson), "utf8");
        this.#writeAll(line, line.length);
        return;
      }
    }
    const batch = this.#batch;
    let at = this.#used;
    at += batch.write(this.#opening, at, "latin1");
    at += batch.write(event.event_id, at, "latin1");
    at += batch.write(this.#afterId, at, "utf8");
    at += batch.write(sequence, at, "latin1");
    at += batch.write(',"timestamp":"', at, "latin1");
    at += batch.write(event.timestamp, at, "latin1");
    at += batch.write('","elapsed_ms":', at, "latin1");
    at += batch.write(elapsed, at, "latin1");
    at += batch.write(tail, at, "latin1");
    at += batch.write(payloadJson, at, "utf8");
    at += batch.write("}\n", at, "latin1");
    this.#used = at;
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
