import { parseJson } from "../support/json-text.js";
/**
 * Reads the token usage of a model answer (docs/triggers.md, "Token quotas"): OpenAI's
 * `usage.total_tokens` (Chat Completions and Responses), Anthropic's `usage.input_tokens +
 * usage.output_tokens`. A JSON body is read whole; an event stream event by event, each event's
 * `data` read as JSON, the usage counted as it arrives (Anthropic's `message_start` brings the
 * input tokens, its `message_delta` the output tokens so far). Pure: bytes in, token counts out.
 */
export class UsageReader {
  readonly #stream: boolean;
  #text = "";
  #data: string[] = [];
  #input = 0;
  #output = 0;
  #total: number | null = null;
  #counted = 0;
  #tooLarge = false;
  readonly #limit: number;

  constructor(stream: boolean, limit: number) {
    this.#stream = stream;
    this.#limit = limit;
  }

  /** Feeds decoded text; returns the tokens newly known from it (0 when none). */
  feed(text: string): number {
    if (this.#tooLarge) return 0;
    this.#text += text;
    if (!this.#stream) {
      if (this.#text.length > this.#limit) {
        this.#tooLarge = true;
        this.#text = "";
      }
      return 0;
    }
    let fresh = 0;
    let start = 0;
    // Lines end with CRLF, LF or CR alone; a CR at the very end waits for what follows it.
    for (const lineEnd = /\r\n|\n|\r(?=[^\n])/g; ; ) {
      const found = lineEnd.exec(this.#text);
      if (found === null) break;
      fresh += this.#line(this.#text.slice(start, found.index));
      start = found.index + found[0].length;
    }
    this.#text = this.#text.slice(start);
    if (this.#text.length > this.#limit) {
      this.#tooLarge = true;
      this.#text = "";
    }
    return fresh;
  }

  /** The body ended; returns the tokens newly known. */
  end(): number {
    if (this.#tooLarge) return 0;
    if (this.#stream) {
      const last = this.#text.endsWith("\r") ? this.#line(this.#text.slice(0, -1)) : 0;
      this.#text = "";
      return last + this.#line("") + this.#line("");
    }
    const body = this.#text;
    this.#text = "";
    return this.#read(body);
  }

  #line(line: string): number {
    if (line === "") {
      if (this.#data.length === 0) return 0;
      const data = this.#data.join("\n");
      this.#data = [];
      return this.#read(data);
    }
    if (line.startsWith("data:")) this.#data.push(line.slice(line[5] === " " ? 6 : 5));
    return 0;
  }

  #read(json: string): number {
    const usage = usageOf(parseJson(json));
    if (usage === null) return 0;
    if (typeof usage.total_tokens === "number") this.#total = usage.total_tokens;
    if (typeof usage.input_tokens === "number") this.#input = usage.input_tokens;
    if (typeof usage.output_tokens === "number") this.#output = usage.output_tokens;
    const total = this.#total ?? this.#input + this.#output;
    const fresh = Math.max(0, total - this.#counted);
    this.#counted += fresh;
    return fresh;
  }
}

type Usage = Record<string, unknown>;

function objectAt(value: unknown, key: string): Usage | null {
  if (typeof value !== "object" || value === null) return null;
  const inner = (value as Usage)[key];
  return typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Usage) : null;
}

/** `usage` at the top (JSON bodies, OpenAI chunks, Anthropic `message_delta`), under `response` (Responses events) or `message` (`message_start`). */
function usageOf(value: unknown): Usage | null {
  return (
    objectAt(value, "usage") ??
    objectAt(objectAt(value, "response"), "usage") ??
    objectAt(objectAt(value, "message"), "usage")
  );
}
