/** One queued line; a line that is not ready holds back every line queued after it. */
export interface QueuedLine {
  line: Buffer | null;
  ready: boolean;
  /** Called when the line's turn has come (after every line before it was written). */
  readonly onTurn: (() => void) | undefined;
  /** Called once the destination has taken the whole line, or when it never will (dropped, closed). */
  readonly onWritten: (() => void) | undefined;
}

/**
 * Writes lines in the order they were queued. A line waiting for the run (a request waiting
 * for its fault decision, an answer waiting for its evidence to be recorded) holds back the
 * lines behind it, so that relaying never reorders a stream.
 */
export class OrderedWriter {
  readonly #write: (line: Buffer, written: () => void) => void;
  readonly #queue: QueuedLine[] = [];

  /** `write` calls `written` once the destination has taken the line (or cannot take it). */
  constructor(write: (line: Buffer, written: () => void) => void) {
    this.#write = write;
  }

  /** Nothing is waiting: a ready line pushed now is written at once. */
  get idle(): boolean {
    return this.#queue.length === 0;
  }

  push(line: Buffer | null, ready: boolean, onTurn?: () => void, onWritten?: () => void): QueuedLine {
    const entry: QueuedLine = { line, ready, onTurn, onWritten };
    this.#queue.push(entry);
    if (ready) this.#flush();
    return entry;
  }

  /** Lets a waiting line go (null: drop it) together with every ready line behind it. */
  release(entry: QueuedLine, line: Buffer | null = entry.line): void {
    entry.line = line;
    entry.ready = true;
    this.#flush();
  }

  #flush(): void {
    while (this.#queue.length > 0 && (this.#queue[0] as QueuedLine).ready) {
      const { line, onTurn, onWritten } = this.#queue.shift() as QueuedLine;
      if (line !== null) this.#write(line, () => onWritten?.());
      else onWritten?.();
      onTurn?.();
    }
  }
}
