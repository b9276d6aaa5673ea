import { forwardsRequestHeader, relaysResponseHeader } from "../../support/http-headers.js";

/**
 * HTTP/1.1 message heads for the fast lane, parsed strictly: anything the lane does not handle
 * itself (another version, a request body in chunks, `Expect`, `Upgrade`, an odd header line)
 * makes the parse return null, and the connection goes to the full pipeline, whose HTTP
 * server answers it exactly as before. Heads are decoded as latin1, so every byte survives
 * the round trip to the other side unchanged.
 */

/**
 * The request head limit both paths share, counted as Node's HTTP server counts it: the
 * request target plus every header name and value, a value from its first non-blank byte to
 * its line end (trailing blanks count, leading ones do not). A head that reaches it is answered
 * 431 by the full pipeline, so the lane hands it over. An incomplete head longer than this
 * goes over too (its count can only be smaller). Also the cap on an upstream response head.
 */
export const MAX_HEAD_BYTES = 16 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A request target the lane forwards as is: origin form, visible ASCII only. */
const ORIGIN_FORM = /^\/[\x21-\x7e]*$/;
const DIGITS = /^[0-9]{1,15}$/;

export interface RequestHead {
  readonly method: string;
  /** Origin form: raw path plus `?query` when there is one. */
  readonly target: string;
  /**
   * The header lines that go upstream, as received (spelling, order, repeats), each ended by
   * CRLF: without the hop-by-hop set, `Host`, `Content-Length`, `Expect` and the names the
   * `Connection` header lists.
   */
  readonly forwarded: string;
  /** 0 when the request has no `Content-Length`. */
  readonly contentLength: number;
  /** The client asked to close the connection after this exchange. */
  readonly close: boolean;
  /** The values of `Idempotency-Key`, joined as Node's HTTP server joins them. */
  readonly idempotencyKey: string | null;
  readonly hasAuthorization: boolean;
}

export interface ResponseHead {
  readonly status: number;
  /** The header lines relayed to the workload, as received, each ended by CRLF (see `relaysResponseHeader`). */
  readonly relayed: string;
  readonly contentType: string | null;
  /** null without a (valid) `Content-Length`. */
  readonly contentLength: number | null;
  readonly chunked: boolean;
  /** The server closes the connection after this response. */
  readonly close: boolean;
  /** The response has a `Date` header. */
  readonly dated: boolean;
  /** `Keep-Alive: timeout=N` in milliseconds, or null. */
  readonly keepAliveMs: number | null;
  /** The whole head, for the rare reader of other headers (`headerRecord`). */
  readonly text: string;
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

/** SP or HTAB. */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** One header line, found by `nextHeader`. */
interface HeaderLine {
  lower: string;
  value: string;
  /** The line's start and the index after its CRLF. */
  start: number;
  next: number;
  /** Its bytes towards the head limit: the name, and the value without its leading blanks. */
  counted: number;
}

/**
 * Reads the header line starting at `at` of a head (which ends with its empty line) into
 * `line`; false at the empty line, null on an odd line (no colon, a name that is not a token,
 * a control character in the value: a bare CR or LF among them).
 */
function nextHeader(head: string, at: number, line: HeaderLine): boolean | null {
  const eol = head.indexOf("\r\n", at);
  if (eol === at) return false;
  const colon = head.indexOf(":", at);
  if (colon <= at || colon > eol) return null;
  const name = head.slice(at, colon);
  if (!TOKEN.test(name)) return null;
  let from = colon + 1;
  let to = eol;
  while (from < to && isBlank(head.charCodeAt(from))) from++;
  line.counted = colon - at + eol - from;
  while (to > from && isBlank(head.charCodeAt(to - 1))) to--;
  const value = head.slice(from, to);
  if (hasControl(value)) return null;
  line.lower = name.toLowerCase();
  line.value = value;
  line.start = at;
  line.next = eol + 2;
  return true;
}

/** The header lines of `head` from `at` that `keep` keeps, as received. */
function keptLines(head: string, at: number, keep: (lower: string) => boolean): string {
  const line: HeaderLine = { lower: "", value: "", start: 0, next: at, counted: 0 };
  let kept = "";
  while (nextHeader(head, line.next, line) === true) {
    if (keep(line.lower)) kept += head.slice(line.start, line.next);
  }
  return kept;
}

/** The two `Connection` values nearly every message carries, shared (copied before any addition). */
const KEEP_ALIVE: ReadonlySet<string> = new Set(["keep-alive"]);
const CLOSE: ReadonlySet<string> = new Set(["close"]);

function addOptions(options: ReadonlySet<string> | null, value: string): ReadonlySet<string> {
  if (options === null) {
    const lower = value.toLowerCase();
    if (lower === "keep-alive") return KEEP_ALIVE;
    if (lower === "close") return CLOSE;
  }
  const set = new Set<string>(options ?? []);
  for (const token of value.split(",")) {
    const name = token.trim().toLowerCase();
    if (name !== "") set.add(name);
  }
  return set;
}

/**
 * The one `Content-Length` of a message; undefined when it is not a plain number or is
 * repeated, even with an equal value (Node's HTTP parser refuses both, so both paths do).
 */
function length(previous: number | null, value: string): number | undefined {
  return previous === null && DIGITS.test(value) ? Number(value) : undefined;
}

/** Names a `Connection` header lists besides its own options: they need a second pass. */
function listsOthers(options: ReadonlySet<string> | null): boolean {
  if (options === null) return false;
  for (const name of options) if (name !== "close" && name !== "keep-alive") return true;
  return false;
}

/**
 * Parses a request head (`head` = its bytes up to and including the empty line). Null when
 * the lane leaves the request to the full pipeline: whatever Node's HTTP server refuses (no
 * `Host`, a repeated `Content-Length`, a head at the limit, …) among the rest.
 */
export function parseRequestHead(head: string, forwardedMethods: ReadonlySet<string>): RequestHead | null {
  const startEnd = head.indexOf("\r\n");
  const firstSpace = head.indexOf(" ");
  const lastSpace = head.lastIndexOf(" ", startEnd);
  if (firstSpace <= 0 || lastSpace <= firstSpace || head.slice(lastSpace + 1, startEnd) !== "HTTP/1.1")
    return null;
  const method = head.slice(0, firstSpace);
  const target = head.slice(firstSpace + 1, lastSpace);
  if (!forwardedMethods.has(method) || !ORIGIN_FORM.test(target)) return null;
  let contentLength: number | null = null;
  let options: ReadonlySet<string> | null = null;
  let idempotencyKey: string | null = null;
  let hasAuthorization = false;
  let hasHost = false;
  let counted = target.length;
  let forwarded = "";
  const line: HeaderLine = { lower: "", value: "", start: 0, next: startEnd + 2, counted: 0 };
  for (
    let found = nextHeader(head, line.next, line);
    found !== false;
    found = nextHeader(head, line.next, line)
  ) {
    if (found === null) return null;
    counted += line.counted;
    const { lower, value } = line;
    switch (lower) {
      case "host":
        hasHost = true;
        break;
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
    if (forwardsRequestHeader(lower, null)) forwarded += head.slice(line.start, line.next);
  }
  if (!hasHost || counted >= MAX_HEAD_BYTES) return null;
  if (listsOthers(options))
    forwarded = keptLines(head, startEnd + 2, (lower) => forwardsRequestHeader(lower, options));
  return {
    method,
    target,
    forwarded,
    contentLength: contentLength ?? 0,
    close: options?.has("close") === true,
    idempotencyKey,
    hasAuthorization,
  };
}

/** The status of a start line `HTTP/1.x NNN[ reason]` (x 0 or 1, NNN 100–999), else null. */
function statusOf(head: string, startEnd: number): number | null {
  if (startEnd < 12 || !head.startsWith("HTTP/1.") || (startEnd !== 12 && head.charCodeAt(12) !== 0x20))
    return null;
  const minor = head.charCodeAt(7);
  if ((minor !== 0x30 && minor !== 0x31) || head.charCodeAt(8) !== 0x20) return null;
  let status = 0;
  for (let i = 9; i < 12; i++) {
    const digit = head.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return null;
    status = status * 10 + digit;
  }
  return status < 100 ? null : status;
}

/** The last `Keep-Alive` value read and its timeout: upstreams repeat the same one. */
let lastKeepAlive = "";
let lastKeepAliveMs: number | null = null;

function keepAliveTimeout(value: string): number | null {
  if (value !== lastKeepAlive) {
    const timeout = /(?:^|,)\s*timeout\s*=\s*([0-9]{1,6})\s*(?:,|$)/i.exec(value);
    lastKeepAlive = value;
    lastKeepAliveMs = timeout === null ? null : Number(timeout[1]) * 1000;
  }
  return lastKeepAliveMs;
}

/** Parses a response head; null when it is not a well-formed HTTP/1.x response head. */
export function parseResponseHead(head: string): ResponseHead | null {
  const startEnd = head.indexOf("\r\n");
  const status = statusOf(head, startEnd);
  if (status === null) return null;
  const http10 = head.charCodeAt(7) === 0x30;
  let contentLength: number | null = null;
  let contentType: string | null = null;
  let chunked = false;
  let untilClose = false;
  let transferCoded = false;
  let options: ReadonlySet<string> | null = null;
  let keepAliveMs: number | null = null;
  let dated = false;
  let relayed = "";
  const line: HeaderLine = { lower: "", value: "", start: 0, next: startEnd + 2, counted: 0 };
  for (
    let found = nextHeader(head, line.next, line);
    found !== false;
    found = nextHeader(head, line.next, line)
  ) {
    if (found === null) return null;
    const { lower, value } = line;
    switch (lower) {
      case "content-length": {
        const n = length(contentLength, value);
        if (n === undefined) return null;
        contentLength = n;
        break;
      }
      case "content-type":
        contentType ??= value;
        break;
      case "transfer-encoding":
        // Chunked as the final coding frames the body; any other coding runs to the close.
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
        untilClose = !chunked;
        transferCoded = true;
        break;
      case "connection":
        options = addOptions(options, value);
        break;
      case "keep-alive":
        keepAliveMs = keepAliveTimeout(value) ?? keepAliveMs;
        break;
      case "date":
        dated = true;
        break;
    }
    if (relaysResponseHeader(lower, null)) relayed += head.slice(line.start, line.next);
  }
  // Both framings at once is refused, as undici refuses it for the full pipeline.
  if (transferCoded && contentLength !== null) return null;
  if (listsOthers(options))
    relayed = keptLines(head, startEnd + 2, (lower) => relaysResponseHeader(lower, options));
  const close = untilClose || (http10 ? options?.has("keep-alive") !== true : options?.has("close") === true);
  return {
    status,
    relayed,
    contentType,
    contentLength: chunked || untilClose ? null : contentLength,
    chunked,
    close,
    dated,
    keepAliveMs,
    text: head,
  };
}

/** Lower-case name → value(s) of a response head, the shape the settling code reads (`retry-after`). */
export function headerRecord(head: ResponseHead): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  const line: HeaderLine = {
    lower: "",
    value: "",
    start: 0,
    next: head.text.indexOf("\r\n") + 2,
    counted: 0,
  };
  while (nextHeader(head.text, line.next, line) === true) {
    const previous = record[line.lower];
    if (previous === undefined) record[line.lower] = line.value;
    else if (Array.isArray(previous)) previous.push(line.value);
    else record[line.lower] = [previous, line.value];
  }
  return record;
}
