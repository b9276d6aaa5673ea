/**
 * The framing of one response body as it arrives in pieces split anywhere: a length, chunked
 * transfer coding (extensions and trailers read and dropped), or the rest of the connection.
 * `feed` hands each piece of payload to `payload` (views into the input, never copies) and
 * returns how many input bytes belong to this body; `done` tells when its end was seen.
 */
export class BodyFraming {
  /** Bytes of payload still expected: of the body (length) or of the current chunk. */
  #remaining: number;
  #state: "length" | "size" | "data" | "data-end" | "trailer" | "close" | "done";
  /** Text of the chunk-size or trailer line read so far. */
  #line = "";
  readonly #payload: (piece: Buffer) => void;

  private constructor(state: BodyFraming["state"], remaining: number, payload: (piece: Buffer) => void) {
    this.#state = remaining === 0 && state === "length" ? "done" : state;
    this.#remaining = remaining;
    this.#payload = payload;
  }

  static length(n: number, payload: (piece: Buffer) => void): BodyFraming {
    return new BodyFraming("length", n, payload);
  }

  static chunked(payload: (piece: Buffer) => void): BodyFraming {
    return new BodyFraming("size", 0, payload);
  }

  static untilClose(payload: (piece: Buffer) => void): BodyFraming {
    return new BodyFraming("close", 0, payload);
  }

  get state(): "length" | "size" | "data" | "data-end" | "trailer" | "close" | "done" {
    return this.#state;
  }

  get done(): boolean {
    return this.#state === "done";
  }

  /** True while the body ends only with the connection. */
  get endsWithClose(): boolean {
    return this.#state === "close";
  }

  /** Consumes input from `start`; returns the index after the last byte of this body it used. Throws a `FramingError` on bad chunked syntax. */
  feed(input: Buffer, start: number): number {
    let at = start;
    while (at < input.length && this.#state !== "done") {
      switch (this.#state) {
        case "close":
          this.#payload(at === 0 ? input : input.subarray(at));
          return input.length;
        case "length":
        case "data": {
          const take = Math.min(this.#remaining, input.length - at);
          this.#payload(input.subarray(at, at + take));
          at += take;
          this.#remaining -= take;
          if (this.#remaining === 0) this.#state = this.#state === "length" ? "done" : "data-end";
          break;
        }
        case "size":
        case "trailer":
        case "data-end":
          at = this.#readLine(input, at);
          break;
      }
    }
    return at;
  }

  /** Reads up to one line end; acts on the complete line. */
  #readLine(input: Buffer, at: number): number {
    const lf = input.indexOf(0x0a, at);
    const end = lf < 0 ? input.length : lf + 1;
    this.#line += input.toString("latin1", at, end);
    if (this.#line.length > 4096) throw new FramingError();
    if (lf < 0) return end;
    const line = this.#line.endsWith("\r\n") ? this.#line.slice(0, -2) : this.#line.slice(0, -1);
    this.#line = "";
    if (this.#state === "data-end") {
      if (line !== "") throw new FramingError();
      this.#state = "size";
    } else if (this.#state === "size") {
      const match = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (match === null) throw new FramingError();
      this.#remaining = Number.parseInt(match[1] as string, 16);
      this.#state = this.#remaining === 0 ? "trailer" : "data";
    } else if (line === "") {
      this.#state = "done";
    }
    return end;
  }
}

/** The body's chunked framing is broken. */
export class FramingError extends Error {
  override readonly name = "FramingError";
}
