const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the events of a `text/event-stream` body as its bytes arrive, in chunks split
 * anywhere. Lines end as the SSE format says: CRLF, LF, or CR alone (a CR directly followed by
 * LF is one line end). An event is a block of lines ended by an empty line; comment-only
 * blocks count too, empty lines with no line before them do not.
 *
 * An event whose empty line ends with a CR is complete only once the next byte is known not
 * to be LF (that LF would belong to the same line end), or when the body ends.
 */
export class SseEventCounter {
  #count = 0;
  /** The current line has at least one byte. */
  #lineHasBytes = false;
  /** The current block has a non-empty line. */
  #blockHasLines = false;
  /** The previous byte was a CR. */
  #afterCr = false;
  /** That CR ended an event's empty line: the event completes with the next byte (or the end). */
  #pending = false;

  /** Complete events so far. */
  get count(): number {
    return this.#count;
  }

  /** Complete events, counting one whose last CR awaits the next byte as complete. */
  get countIfEnded(): number {
    return this.#pending ? this.#count + 1 : this.#count;
  }

  /**
   * Feeds `chunk`. When `stopAt` is given and event number `stopAt` completes in this chunk,
   * returns the offset right after that event's line end (bytes from there on are not
   * consumed); otherwise consumes the whole chunk and returns -1.
   */
  scan(chunk: Uint8Array, stopAt = 0): number {
    let index = 0;
    const length = chunk.length;
    if (this.#afterCr && length > 0) {
      this.#afterCr = false;
      const lf = chunk[0] === LF;
      if (lf) index = 1;
      if (this.#pending) {
        this.#pending = false;
        this.#count += 1;
        if (this.#count === stopAt) return index;
      }
    }
    // The next LF and CR at or after `index` (`length` when there is none), searched natively and
    // again only once passed: a long line costs two searches, not a step per byte.
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let nextLf = -1;
    let nextCr = -1;
    while (index < length) {
      if (nextLf < index) nextLf = found(bytes.indexOf(LF, index), length);
      if (nextCr < index) nextCr = found(bytes.indexOf(CR, index), length);
      const end = Math.min(nextLf, nextCr);
      if (end > index) {
        this.#lineHasBytes = true;
        index = end;
        continue;
      }
      const byte = chunk[index] as number;
      index += 1;
      const endsEvent = !this.#lineHasBytes && this.#blockHasLines;
      if (this.#lineHasBytes) this.#blockHasLines = true;
      this.#lineHasBytes = false;
      if (endsEvent) this.#blockHasLines = false;
      if (byte === CR) {
        if (index === length) {
          this.#afterCr = true;
          this.#pending = endsEvent;
          return -1;
        }
        if (chunk[index] === LF) index += 1;
      }
      if (endsEvent) {
        this.#count += 1;
        if (this.#count === stopAt) return index;
      }
    }
    return -1;
  }

  /** The body ended: an event waiting on its last CR is complete. Returns the final count. */
  end(): number {
    if (this.#pending) this.#count += 1;
    this.#pending = false;
    this.#afterCr = false;
    return this.#count;
  }
}

function found(index: number, none: number): number {
  return index === -1 ? none : index;
}
