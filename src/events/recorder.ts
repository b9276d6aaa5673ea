import { randomUUID } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { type AgentChaosEvent, EVENT_COMPONENT, type EventPayload, type EventSink } from "./types.js";

export type EventListener = (event: AgentChaosEvent) => void;

/**
 * The only writer of events.jsonl. `emit` assigns the next sequence number, serialises the
 * envelope in contract order and appends the line with a synchronous write before it
 * returns: Node runs one `emit` at a time, so the write itself is the lock, and a crash
 * leaves a valid prefix.
 */
export class Recorder implements EventSink {
  readonly runId: string;
  readonly path: string;
  #fd: number | null;
  #sequence = 0;
  readonly #origin = performance.now();
  readonly #listeners: EventListener[] = [];

  constructor(path: string, runId: string) {
    this.path = path;
    this.runId = runId;
    this.#fd = openSync(path, "a");
  }

  /** Called synchronously after each event is written (live terminal lines). */
  onEvent(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  get lastSequence(): number {
    return this.#sequence;
  }

  /** Whole milliseconds since the recorder was created (the clock of `elapsed_ms`). */
  elapsedMs(): number {
    return Math.floor(performance.now() - this.#origin);
  }

  emit<P extends EventPayload>(payload: P): AgentChaosEvent<P> {
    if (this.#fd === null) throw new Error("recorder is closed");
    const event: AgentChaosEvent<P> = {
      schema_version: 1,
      event_id: randomUUID(),
      run_id: this.runId,
      sequence: this.#sequence + 1,
      timestamp: new Date().toISOString(),
      elapsed_ms: this.elapsedMs(),
      type: payload.kind,
      component: EVENT_COMPONENT[payload.kind],
      payload,
    };
    writeSync(this.#fd, `${JSON.stringify(event)}\n`);
    this.#sequence = event.sequence;
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  close(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
  }
}
