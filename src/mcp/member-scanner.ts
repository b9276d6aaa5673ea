/**
 * Finds the few members of a JSON-RPC message that say what it is — `id`, `method`, whether it
 * has a `result` or an `error`, and `params.name` / `params.uri` — in a message that arrives in
 * pieces and is never held whole (a line too long to relay). One pass, linear in the message's
 * size: string contents are skipped with `indexOf`, nested values by counting brackets. Input
 * that is not a JSON object stops the scan; what was found before stays found.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Keys and values longer than this are not kept (no key looked for is longer, even escaped). */
const KEY_CAP = 64;
const VALUE_CAP = 64 * 1024;

export interface ScannedMembers {
  /** `method`, when it is a string. */
  readonly method: string | null;
  /** The raw JSON text of `id`, when it is a string or a number. */
  readonly rawId: string | null;
  readonly hasResult: boolean;
  readonly hasError: boolean;
  /** `params.name` and `params.uri`, when they are strings. */
  readonly params: { readonly name?: string; readonly uri?: string };
  /** False when a member it looks for (or a key) was too long to keep: what it found may be short of the truth. */
  readonly complete: boolean;
}

type Mode =
  | "start"
  | "key"
  | "colon"
  | "value"
  | "after"
  | "string"
  | "scalar"
  | "nested"
  | "nested-string"
  | "done";

/** Where a string or scalar being read goes. */
type Capture = "key" | "id" | "method" | "name" | "uri" | null;

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const TOP_CAPTURES: Readonly<Record<string, Capture>> = { id: "id", method: "method" };
const PARAMS_CAPTURES: Readonly<Record<string, Capture>> = { name: "name", uri: "uri" };

export class MemberScanner {
  #mode: Mode = "start";
  /** 1: the message object; 2: its `params` object (deeper values are skipped whole). */
  #level = 1;
  #key: string | null = null;
  #capture: Capture = null;
  #captured: number[] = [];
  #overCap = false;
  /** Brackets open inside a skipped value. */
  #nesting = 0;
  /** The last byte of the previous piece was a backslash inside a string. */
  #escaped = false;
  #method: string | null = null;
  #rawId: string | null = null;
  #hasResult = false;
  #hasError = false;
  #name: string | undefined;
  #uri: string | undefined;
  #complete = true;

  /** Reads the next piece of the message. */
  push(piece: Buffer): void {
    let index = 0;
    const length = piece.length;
    while (index < length && this.#mode !== "done") {
      if (this.#mode === "string" || this.#mode === "nested-string") {
        index = this.#string(piece, index);
        continue;
      }
      if (this.#mode === "nested") {
        index = this.#nested(piece, index);
        continue;
      }
      const byte = piece[index] as number;
      if (this.#mode === "scalar") {
        if (byte === COMMA || byte === CLOSE_OBJECT || WHITESPACE.has(byte)) {
          this.#finishValue();
          this.#mode = "after";
          continue;
        }
        this.#keep(byte);
        index++;
        continue;
      }
      index++;
      if (WHITESPACE.has(byte)) continue;
      this.#structure(byte);
    }
  }

  /** What was found. */
  result(): ScannedMembers {
    const params: { name?: string; uri?: string } = {};
    if (this.#name !== undefined) params.name = this.#name;
    if (this.#uri !== undefined) params.uri = this.#uri;
    return {
      method: this.#method,
      rawId: this.#rawId,
      hasResult: this.#hasResult,
      hasError: this.#hasError,
      params,
      complete: this.#complete,
    };
  }

  /** One byte outside strings and skipped values, whitespace excluded. */
  #structure(byte: number): void {
    switch (this.#mode) {
      case "start":
        this.#mode = byte === OPEN_OBJECT ? "key" : "done";
        return;
      case "key":
        if (byte === QUOTE) this.#begin("string", "key");
        else this.#mode = byte === CLOSE_OBJECT ? this.#closeObject() : "done";
        return;
      case "colon":
        this.#mode = byte === COLON ? "value" : "done";
        return;
      case "value":
        this.#value(byte);
        return;
      case "after":
        if (byte === COMMA) this.#mode = "key";
        else this.#mode = byte === CLOSE_OBJECT ? this.#closeObject() : "done";
        return;
      default:
        return;
    }
  }

  #value(byte: number): void {
    const key = this.#key;
    // A repeated member counts as JSON.parse counts it: the last one wins.
    if (this.#level === 1) {
      if (key === "result") this.#hasResult = true;
      else if (key === "error") this.#hasError = true;
      else if (key === "id") this.#rawId = null;
      else if (key === "method") this.#method = null;
      else if (key === "params") {
        this.#name = undefined;
        this.#uri = undefined;
      }
    } else if (key === "name") this.#name = undefined;
    else if (key === "uri") this.#uri = undefined;
    const captures = this.#level === 1 ? TOP_CAPTURES : PARAMS_CAPTURES;
    const capture = key === null ? null : (captures[key] ?? null);
    if (byte === OPEN_OBJECT && this.#level === 1 && key === "params") {
      this.#level = 2;
      this.#mode = "key";
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.#nesting = 1;
      this.#mode = "nested";
    } else if (byte === QUOTE) {
      this.#begin("string", capture);
    } else {
      // A number or literal: only an id is kept (a number id is written back as received).
      this.#begin("scalar", capture === "id" ? "id" : null);
      this.#keep(byte);
    }
  }

  #closeObject(): Mode {
    if (this.#level === 2) {
      this.#level = 1;
      return "after";
    }
    return "done";
  }

  #begin(mode: "string" | "scalar", capture: Capture): void {
    this.#mode = mode;
    this.#capture = capture;
    this.#captured = [];
    this.#overCap = false;
    if (mode === "string" && capture !== null) this.#captured.push(QUOTE);
  }

  #keep(byte: number): void {
    if (this.#capture === null || this.#overCap) return;
    if (this.#captured.length >= (this.#capture === "key" ? KEY_CAP : VALUE_CAP)) {
      this.#overCap = true;
      // A key that long is none of those looked for (even written with escapes); a value is lost.
      if (this.#capture !== "key") this.#complete = false;
      this.#captured = [];
      return;
    }
    this.#captured.push(byte);
  }

  /**
   * Inside a string from `index`: finds its closing quote (escapes skipped) with `indexOf`,
   * keeping the bytes when the string is captured. Returns where reading goes on.
   */
  #string(piece: Buffer, start: number): number {
    const keeping = this.#mode === "string" && this.#capture !== null && !this.#overCap;
    let index = start;
    if (this.#escaped) {
      this.#escaped = false;
      if (keeping) this.#keep(piece[index] as number);
      index++;
    }
    let quote = -2;
    let backslash = -2;
    while (index < piece.length) {
      if (quote < index && quote !== -1) quote = piece.indexOf(QUOTE, index);
      if (backslash < index && backslash !== -1) backslash = piece.indexOf(BACKSLASH, index);
      const end = quote === -1 ? piece.length : quote;
      if (backslash !== -1 && backslash < end) {
        if (keeping) this.#keepRange(piece, index, backslash + 2);
        index = backslash + 2;
        if (index > piece.length) {
          this.#escaped = true;
          return piece.length;
        }
        continue;
      }
      if (keeping) this.#keepRange(piece, index, end);
      if (quote === -1) return piece.length;
      this.#closeString();
      return quote + 1;
    }
    return index;
  }

  #keepRange(piece: Buffer, from: number, to: number): void {
    const end = Math.min(to, piece.length);
    for (let index = from; index < end && !this.#overCap; index++) this.#keep(piece[index] as number);
  }

  #closeString(): void {
    if (this.#mode === "nested-string") {
      this.#mode = "nested";
      return;
    }
    if (this.#capture !== null && !this.#overCap) this.#captured.push(QUOTE);
    if (this.#capture === "key") {
      this.#key = this.#overCap ? null : parsedString(this.#captured);
      this.#mode = "colon";
      return;
    }
    this.#finishValue();
    this.#mode = "after";
  }

  /** A string or scalar value ended: keeps it when it is one the scanner looks for. */
  #finishValue(): void {
    const capture = this.#capture;
    const raw = capture === null || this.#overCap ? null : Buffer.from(this.#captured).toString("utf8");
    this.#capture = null;
    this.#captured = [];
    if (raw === null) return;
    if (capture === "id") {
      const id = parsed(raw);
      this.#rawId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? raw : null;
      return;
    }
    const value = parsed(raw);
    if (typeof value !== "string") return;
    if (capture === "method") this.#method = value;
    else if (capture === "name") this.#name = value;
    else if (capture === "uri") this.#uri = value;
  }

  /** Inside a skipped object or array: counts brackets until it closes. */
  #nested(piece: Buffer, start: number): number {
    for (let index = start; index < piece.length; index++) {
      const byte = piece[index] as number;
      if (byte === QUOTE) {
        this.#mode = "nested-string";
        return index + 1;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.#nesting++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        this.#nesting--;
        if (this.#nesting === 0) {
          this.#mode = "after";
          return index + 1;
        }
      }
    }
    return piece.length;
  }
}

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function parsedString(bytes: readonly number[]): string | null {
  const value = parsed(Buffer.from(bytes).toString("utf8"));
  return typeof value === "string" ? value : null;
}
