/**
 * Reading a cassette back strictly (docs/replay.md): the header, then every line. Memory holds
 * one line at a time besides the interactions kept, and the whole read is linear in the file's
 * size; the first problem stops it with a `CassetteError` naming the file and the line.
 */
import { readLines } from "../support/line-reader.js";
import { FileReadError, sizeText } from "../support/regular-file.js";
import { CassetteError } from "./errors.js";
import {
  CASSETTE_VERSION,
  type CassetteHeader,
  EVENT_KEYS,
  HEADER_KEYS,
  INTERACTION_KEYS,
  type Interaction,
} from "./format.js";

/** One line: a response body of the body limit, base64 encoded, with room to spare. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** The whole file. */
export const MAX_CASSETTE_BYTES = 512 * 1024 * 1024;

export interface Cassette {
  readonly header: CassetteHeader;
  readonly interactions: readonly Interaction[];
}

/** What the cassette must be for: its dependency and protocol. */
export interface CassetteOwner {
  readonly dependency: string;
  readonly protocol: "http" | "mcp";
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const HEX64 = /^[0-9a-f]{64}$/;
const MATCH_FIELDS = new Set(["method", "path", "body", "query"]);

class LineProblem extends Error {}

function problem(message: string): never {
  throw new LineProblem(message);
}

type Json = Record<string, unknown>;

function objectOf(value: unknown, what: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    problem(`${what} is not a JSON object`);
  return value as Json;
}

function keysIn(record: Json, allowed: readonly string[], required: readonly string[], what: string): void {
  const keys = Object.keys(record);
  const unknown = keys.find((key) => !allowed.includes(key));
  if (unknown !== undefined) problem(`${what} has an unknown key ${JSON.stringify(unknown)}`);
  const missing = required.find((key) => !(key in record));
  if (missing !== undefined) problem(`${what} has no ${JSON.stringify(missing)}`);
}

function stringAt(record: Json, key: string, what: string, pattern?: RegExp): string {
  const value = record[key];
  if (typeof value !== "string" || (pattern !== undefined && !pattern.test(value)))
    problem(`${what}: ${key} is not ${pattern === HEX64 ? "a SHA-256 in hex" : "a valid string"}`);
  return value;
}

function stringRecord(value: unknown, what: string): Record<string, string> {
  const record = objectOf(value, what);
  for (const item of Object.values(record))
    if (typeof item !== "string") problem(`${what} holds a non-string`);
  return record as Record<string, string>;
}

function parseHeader(record: Json, owner: CassetteOwner | null): CassetteHeader {
  if (typeof record.cassette !== "number" || !Number.isInteger(record.cassette))
    problem("the header has no cassette format version (an integer)");
  if (record.cassette !== CASSETTE_VERSION)
    problem(
      `cassette format version ${record.cassette} is not known (this version reads ${CASSETTE_VERSION})`,
    );
  keysIn(record, HEADER_KEYS, HEADER_KEYS, "the header");
  const dependency = stringAt(record, "dependency", "the header");
  const protocol = record.protocol;
  if (protocol !== "http" && protocol !== "mcp") problem('the header\'s protocol is not "http" or "mcp"');
  const recordedAt = stringAt(record, "recorded_at", "the header");
  if (Number.isNaN(Date.parse(recordedAt))) problem("the header's recorded_at is not an ISO-8601 time");
  const version = stringAt(record, "agentchaos_version", "the header");
  const match = record.match;
  if (
    !Array.isArray(match) ||
    match.length === 0 ||
    match.some((field) => typeof field !== "string" || !MATCH_FIELDS.has(field))
  )
    problem("the header's match is not a list of method, path, body, query");
  const salt = stringAt(record, "salt", "the header", /^[0-9a-f]{32}$/);
  if (owner !== null && dependency !== owner.dependency)
    problem(
      `it was recorded for dependency ${JSON.stringify(dependency)}, not ${JSON.stringify(owner.dependency)}`,
    );
  if (owner !== null && protocol !== owner.protocol)
    problem(`it was recorded for protocol ${protocol}, not ${owner.protocol}`);
  return {
    cassette: CASSETTE_VERSION,
    dependency,
    protocol,
    recorded_at: recordedAt,
    agentchaos_version: version,
    match: match as CassetteHeader["match"],
    salt,
  };
}

/** An HTTP method is a token; an MCP interaction's method is the JSON-RPC method (any text but ""). */
const METHOD_PATTERN = {
  http: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/,
  mcp: /^.+$/su,
} as const;

function parseInteraction(record: Json, protocol: CassetteHeader["protocol"]): Interaction {
  const what = "the interaction";
  keysIn(record, INTERACTION_KEYS, INTERACTION_KEYS.slice(0, 7), what);
  const method = stringAt(record, "method", what, METHOD_PATTERN[protocol]);
  const path = stringAt(record, "path", what);
  const queryHash = stringAt(record, "query_hash", what, HEX64);
  const bodyHash = stringAt(record, "body_hash", what, HEX64);
  const shape = stringRecord(record.request_shape, "its request_shape");
  for (const hash of Object.values(shape))
    if (!HEX64.test(hash)) problem("its request_shape holds a non-hash");
  const status = record.status;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 100 || status > 599)
    problem("its status is not an HTTP status (100 to 599)");
  const headers = stringRecord(record.headers, "its headers");
  const bodies = ["body", "body_base64", "events"].filter((key) => key in record);
  if (bodies.length > 1) problem(`it has both ${bodies.join(" and ")}`);
  const base = {
    method,
    path,
    query_hash: queryHash,
    body_hash: bodyHash,
    request_shape: shape,
    status,
    headers,
  };
  if ("body" in record) return { ...base, body: stringAt(record, "body", what) };
  if ("body_base64" in record) {
    const encoded = stringAt(record, "body_base64", what, /^[A-Za-z0-9+/]*={0,2}$/);
    return { ...base, body_base64: encoded };
  }
  if (!("events" in record)) return base;
  if (!Array.isArray(record.events)) problem("its events is not a list");
  let previous = 0;
  const events = record.events.map((item, index) => {
    const event = objectOf(item, `event ${index + 1}`);
    keysIn(event, EVENT_KEYS, EVENT_KEYS, `event ${index + 1}`);
    const offset = event.offset_ms;
    if (typeof offset !== "number" || !Number.isFinite(offset) || offset < previous)
      problem(`event ${index + 1}'s offset_ms is not a number at or after the one before`);
    previous = offset;
    return { offset_ms: offset, text: stringAt(event, "text", `event ${index + 1}`) };
  });
  return { ...base, events };
}

/**
 * Reads and checks the cassette at `path`, shown as `shown` in messages. `owner`: the
 * dependency it must belong to (null: any). Throws `CassetteError`: `CASSETTE_MISSING` when
 * there is no file, `CASSETTE_INVALID` naming the line otherwise.
 */
export async function readCassette(
  path: string,
  shown: string,
  owner: CassetteOwner | null,
): Promise<Cassette> {
  let header: CassetteHeader | null = null;
  const interactions: Interaction[] = [];
  let total = 0;
  let failure: CassetteError | null = null;
  const atLine = (line: number, message: string): CassetteError =>
    new CassetteError("CASSETTE_INVALID", `cassette ${shown}, line ${line}: ${message}`, line);
  /** Takes one line; `unended`: the file's last line, with no line end after it. */
  const take = (bytes: Buffer, line: number, unended: boolean): boolean => {
    total += bytes.length + 1;
    try {
      if (total > MAX_CASSETTE_BYTES) problem(`the file is larger than ${sizeText(MAX_CASSETTE_BYTES)}`);
      let value: unknown;
      try {
        value = JSON.parse(UTF8.decode(bytes));
      } catch {
        problem(
          unended
            ? "the last line has no line end and is not a whole JSON line (the file was cut short)"
            : "not a JSON line (was the file cut or edited?)",
        );
      }
      const record = objectOf(value, line === 1 ? "the header" : "the line");
      if (header === null) header = parseHeader(record, owner);
      else interactions.push(parseInteraction(record, (header as CassetteHeader).protocol));
      return true;
    } catch (error) {
      if (!(error instanceof LineProblem)) throw error;
      failure = atLine(line, error.message);
      return false;
    }
  };
  let read: Awaited<ReturnType<typeof readLines>>;
  try {
    read = await readLines(path, MAX_LINE_BYTES, (bytes, line) => take(bytes, line, false));
  } catch (error) {
    if (error instanceof FileReadError) {
      if (error.code === "FILE_NOT_FOUND")
        throw new CassetteError("CASSETTE_MISSING", `cassette ${shown} does not exist`, null, error);
      if (error.line !== null)
        throw atLine(error.line, `longer than the ${sizeText(MAX_LINE_BYTES)} line limit`);
      throw new CassetteError("CASSETTE_INVALID", `cassette ${shown} ${error.reason}`, null, error);
    }
    throw error;
  }
  // JSON Lines: the last line's line end is optional; a whole last line without one is read.
  if (failure === null && read.tail.length > 0) take(read.tail, read.lines + 1, true);
  if (failure !== null) throw failure;
  if (header === null) throw atLine(1, "the file is empty (no header line)");
  return { header, interactions };
}
