/**
 * HTTP/1.1 message heads for the fast lane, parsed strictly: anything the lane does not handle
 * itself (another version, a request body in chunks, `Expect`, `Upgrade`, an odd header line)
 * makes the parse return null, and the connection goes to the full pipeline, whose HTTP
 * server answers it exactly as before. Heads are decoded as latin1, so every byte survives
 * the round trip to the other side unchanged.
 */

/** Longer heads go to the full pipeline (Node's HTTP server answers them with its own limit). */
export const MAX_HEAD_BYTES = 16 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A request target the lane forwards as is: origin form, visible ASCII only. */
const ORIGIN_FORM = /^\/[\x21-\x7e]*$/;
const DIGITS = /^[0-9]{1,15}$/;

/** One header line as received: name with the sender's spelling, value trimmed. */
export interface HeaderLine {
  readonly name: string;
  /** Lower case. */
  readonly lower: string;
  readonly value: string;
}

export interface RequestHead {
  readonly method: string;
  /** Origin form: raw path plus `?query` when there is one. */
  readonly target: string;
  readonly headers: readonly HeaderLine[];
  /** 0 when the request has no `Content-Length`. */
  readonly contentLength: number;
  /** The client asked to close the connection after this exchange. */
  readonly close: boolean;
  /** Names the `Connection` header lists (hop-by-hop by declaration), lower case. */
  readonly connectionOptions: ReadonlySet<string> | null;
  /** The values of `Idempotency-Key`, joined as Node's HTTP server joins them. */
  readonly idempotencyKey: string | null;
  readonly hasAuthorization: boolean;
}

export interface ResponseHead {
  readonly status: number;
  /** HTTP/1.0 response: the connection closes after it unless it says keep-alive. */
  readonly http10: boolean;
  readonly headers: readonly HeaderLine[];
  /** null without a (valid) `Content-Length`. */
  readonly contentLength: number | null;
  readonly chunked: boolean;
  /** The server closes the connection after this response. */
  readonly close: boolean;
  readonly connectionOptions: ReadonlySet<string> | null;
  /** `Keep-Alive: timeout=N` in milliseconds, or null. */
  readonly keepAliveMs: number | null;
}

/** Index right after the head's empty line, or -1 while it is incomplete. */
export function headEnd(buffer: Buffer, from: number): number {
  const at = buffer.indexOf("\r\n\r\n", from, "latin1");
  return at < 0 ? -1 : at + 4;
}

/** Any control character but HTAB (obs-text, bytes 0x80–0xff, is allowed). */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/** Splits the header lines of a head (`lines` without the start line); null on any odd line. */
function headerLines(lines: readonly string[]): HeaderLine[] | null {
  const headers: HeaderLine[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    const value = line.slice(colon + 1).trim();
    // A bare CR or LF inside a line, or any other control character, is left to the full parser.
    if (hasControl(value)) return null;
    headers.push({ name, lower: name.toLowerCase(), value });
  }
  return headers;
}

function addOptions(options: Set<string> | null, value: string): Set<string> {
  const set = options ?? new Set<string>();
  for (const token of value.split(",")) {
    const name = token.trim().toLowerCase();
    if (name !== "") set.add(name);
  }
  return set;
}

/** A `Content-Length` value (repeated ones must agree); undefined when invalid. */
function length(previous: number | null, value: string): number | undefined {
  const parts = value.split(",").map((part) => part.trim());
  let result = previous;
  for (const part of parts) {
    if (!DIGITS.test(part)) return undefined;
    const n = Number(part);
    if (result !== null && result !== n) return undefined;
    result = n;
  }
  return result ?? undefined;
}

/**
 * Parses a request head (`head` = its bytes up to and including the empty line). Null when
 * the lane leaves the request to the full pipeline.
 */
export function parseRequestHead(head: string, forwardedMethods: ReadonlySet<string>): RequestHead | null {
  const lines = head.slice(0, -4).split("\r\n");
  const start = lines[0] as string;
  const firstSpace = start.indexOf(" ");
  const lastSpace = start.lastIndexOf(" ");
  if (firstSpace <= 0 || lastSpace === firstSpace) return null;
  if (start.slice(lastSpace + 1) !== "HTTP/1.1") return null;
  const method = start.slice(0, firstSpace);
  const target = start.slice(firstSpace + 1, lastSpace);
  if (!forwardedMethods.has(method) || !ORIGIN_FORM.test(target)) return null;
  const headers = headerLines(lines);
  if (headers === null) return null;
  let contentLength: number | null = null;
  let options: Set<string> | null = null;
  let idempotencyKey: string | null = null;
  let hasAuthorization = false;
  for (const { lower, value } of headers) {
    switch (lower) {
      case "content-length": {
        const n = length(contentLength, value);
        if (n === undefined) return null;
        contentLength = n;
        break;
      }
      case "transfer-encoding":
      case "expect":
      case "upgrade":
        return null;
      case "connection":
        options = addOptions(options, value);
        break;
      case "idempotency-key":
        idempotencyKey = idempotencyKey === null ? value : `${idempotencyKey}, ${value}`;
        break;
      case "authorization":
        hasAuthorization = true;
        break;
    }
  }
  return {
    method,
    target,
    headers,
    contentLength: contentLength ?? 0,
    close: options?.has("close") === true,
    connectionOptions: options,
    idempotencyKey,
    hasAuthorization,
  };
}

/** Parses a response head; null when it is not a well-formed HTTP/1.x response head. */
export function parseResponseHead(head: string): ResponseHead | null {
  const lines = head.slice(0, -4).split("\r\n");
  const start = lines[0] as string;
  const match = /^HTTP\/1\.([01]) ([1-9][0-9]{2})(?: |$)/.exec(start);
  if (match === null) return null;
  const http10 = match[1] === "0";
  const status = Number(match[2]);
  const headers = headerLines(lines);
  if (headers === null) return null;
  let contentLength: number | null = null;
  let chunked = false;
  let options: Set<string> | null = null;
  let keepAliveMs: number | null = null;
  let untilClose = false;
  for (const { lower, value } of headers) {
    switch (lower) {
      case "content-length": {
        const n = length(contentLength, value);
        if (n === undefined) return null;
        contentLength = n;
        break;
      }
      case "transfer-encoding":
        // Chunked as the final coding frames the body; any other coding runs to the close.
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
        untilClose = !chunked;
        break;
      case "connection":
        options = addOptions(options, value);
        break;
      case "keep-alive": {
        const timeout = /(?:^|,)\s*timeout\s*=\s*([0-9]{1,6})\s*(?:,|$)/i.exec(value);
        if (timeout !== null) keepAliveMs = Number(timeout[1]) * 1000;
        break;
      }
    }
  }
  const close = untilClose || (http10 ? options?.has("keep-alive") !== true : options?.has("close") === true);
  return {
    status,
    http10,
    headers,
    contentLength: chunked || untilClose ? null : contentLength,
    chunked,
    close,
    connectionOptions: options,
    keepAliveMs,
  };
}

/** Lower-case name → value(s), the shape the settling code reads (`retry-after`, `content-type`). */
export function headerRecord(headers: readonly HeaderLine[]): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const { lower, value } of headers) {
    const previous = record[lower];
    if (previous === undefined) record[lower] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else record[lower] = [previous, value];
  }
  return record;
}
