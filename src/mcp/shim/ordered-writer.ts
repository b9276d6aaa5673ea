/** One queued line; a line that is not ready holds back every line queued after it. */
export interface QueuedLine {
  line: Buffer | null;
  ready: boolean;
  /** Called when the line's turn has come (after every line before it was written). */
  readonly onTurn: (() => void) | undefined;
}

/**
 * Writes lines in the order they were queued. A line waiting for the run (a request waiting
 * for its fault decision, an answer waiting for its evidence to be recorded) holds back the
 * lines behind it, so that relaying never reorders a stream.
 */
export class OrderedWriter {
  readonly #write: (line: Buffer) => void;
  readonly #queue: QueuedLine[] = [];

  constructor(write: (line: Buffer) => void) {
    this.#write = write;
  }

  push(line: Buffer | null, ready: boolean, onTurn?: () => void): QueuedLine {
    const entry: QueuedLine = { line, ready, onTurn };
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
      const { line, onTurn } = this.#queue.shift() as QueuedLine;
      if (line !== null) this.#write(line);
      onTurn?.();
    }
  }
}
