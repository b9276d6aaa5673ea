import { readFile } from "node:fs/promises";
import { EventsError } from "./events-error.js";
import {
  type FieldCheck,
  isPlainObject,
  nonNegativeInteger,
  oneOf,
  positiveInteger,
  string,
  utcTimestamp,
  uuid,
} from "./field-checks.js";
import { parseJsonLine } from "./json-line.js";
import { EVENT_TYPES, PAYLOAD_FIELDS } from "./payload-fields.js";
import { type AgentChaosEvent, EVENT_COMPONENT, type EventType } from "./types.js";

export { EventsError, type EventsErrorCode } from "./events-error.js";

export interface ReadEventsOptions {
  /**
   * Drop a last line that has no final `\n` (what a crash mid-write leaves) instead of
   * failing with `EVENTS_TRUNCATED`. The dropped line is not parsed at all.
   */
  readonly allowTruncatedTail?: boolean;
}

const COMPONENTS = [...new Set(Object.values(EVENT_COMPONENT))];

const schemaVersion: FieldCheck = { test: (v) => v === 1, expected: "1" };

/** Envelope keys in contract order; `type`, `component` and `payload` are checked separately. */
const ENVELOPE_FIELDS: Record<string, FieldCheck | null> = {
  schema_version: schemaVersion,
  event_id: uuid,
  run_id: string,
  sequence: positiveInteger,
  timestamp: utcTimestamp,
  elapsed_ms: nonNegativeInteger,
  type: oneOf(EVENT_TYPES),
  component: oneOf(COMPONENTS),
  payload: null,
};

/**
 * A key as it may appear in an error: identifier-like names (all contract keys are) as they
 * are; anything else is not repeated, since a key is file content too.
 */
function showKey(key: string): string {
  return /^[A-Za-z0-9_]{1,64}$/.test(key) ? key : "<non-identifier key>";
}

/** Expected keys and their checks, prepared once per shape. */
interface Shape {
  readonly keys: readonly string[];
  readonly checks: readonly (readonly [string, FieldCheck])[];
}

function shapeOf(fields: Record<string, FieldCheck | null>): Shape {
  const entries = Object.entries(fields);
  return {
    keys: entries.map(([key]) => key),
    checks: entries.flatMap(([key, check]) => (check === null ? [] : [[key, check] as const])),
  };
}

const ENVELOPE = shapeOf(ENVELOPE_FIELDS);
const PAYLOADS = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, shapeOf({ kind: null, ...PAYLOAD_FIELDS[type] })]),
) as Record<EventType, Shape>;

/** Exactly the expected keys: an unknown key is reported first, then a missing one. */
function checkKeys(object: Record<string, unknown>, shape: Shape, line: number, prefix: string): void {
  const present = Object.keys(object);
  if (present.length === shape.keys.length && shape.keys.every((key) => Object.hasOwn(object, key))) return;
  for (const key of present) {
    if (!shape.keys.includes(key))
      throw EventsError.invalid(line, `${prefix}${showKey(key)}`, "is not allowed");
  }
  for (const key of shape.keys) {
    if (!Object.hasOwn(object, key)) throw EventsError.invalid(line, `${prefix}${key}`, "is missing");
  }
}

function checkFields(object: Record<string, unknown>, shape: Shape, line: number, prefix: string): void {
  for (const [key, check] of shape.checks) {
    if (!check.test(object[key]))
      throw EventsError.invalid(line, `${prefix}${key}`, `must be ${check.expected}`);
  }
}

/**
 * Parses and strictly validates one line of events.jsonl (events.md): exactly the envelope
 * keys, exactly the payload keys of the type, `type` equal to `payload.kind`, the component of
 * the type, integers written as integers. Throws `EventsError` (`EVENTS_INVALID`) naming the
 * line and the key path. Key order is not checked.
 */
export function parseEventLine(line: string, lineNumber: number): AgentChaosEvent {
  let value: unknown;
  try {
    value = parseJsonLine(line);
  } catch {
    // The SyntaxError is not kept as the cause: V8 quotes the offending text in its message.
    throw new EventsError(
      "EVENTS_INVALID",
      `Invalid event on line ${lineNumber}: the line is not valid JSON.`,
      {
        line: lineNumber,
        keyPath: "",
      },
    );
  }
  if (!isPlainObject(value)) throw EventsError.invalid(lineNumber, "", "must be a JSON object");
  checkKeys(value, ENVELOPE, lineNumber, "");
  checkFields(value, ENVELOPE, lineNumber, "");

  const type = value.type as EventType;
  if (value.component !== EVENT_COMPONENT[type]) {
    throw EventsError.invalid(lineNumber, "component", `must be ${EVENT_COMPONENT[type]} for this type`);
  }
  const payload = value.payload;
  if (!isPlainObject(payload)) throw EventsError.invalid(lineNumber, "payload", "must be an object");
  if (!Object.hasOwn(payload, "kind")) throw EventsError.invalid(lineNumber, "payload.kind", "is missing");
  if (payload.kind !== type) throw EventsError.invalid(lineNumber, "payload.kind", "must equal type");
  checkKeys(payload, PAYLOADS[type], lineNumber, "payload.");
  checkFields(payload, PAYLOADS[type], lineNumber, "payload.");
  return value as unknown as AgentChaosEvent;
}

function truncatedTail(line: number): EventsError {
  return new EventsError(
    "EVENTS_TRUNCATED",
    `Invalid event on line ${line}: the last line is not terminated.`,
    {
      line,
      keyPath: "",
    },
  );
}

/**
 * Parses the whole text of an events.jsonl file. Every line must end with `\n`; a last line
 * without it is `EVENTS_TRUNCATED` (after every complete line was validated), or dropped with
 * `allowTruncatedTail`. An empty text is an empty stream. Cross-line rules (sequence order,
 * duplicates) are left to the analyzer, which reports them as a result.
 */
export function parseEventsText(text: string, options: ReadEventsOptions = {}): AgentChaosEvent[] {
  const events: AgentChaosEvent[] = [];
  let start = 0;
  // Line by line, so no array of every line's text is ever held next to the parsed events.
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    events.push(parseEventLine(text.slice(start, end), events.length + 1));
    start = end + 1;
  }
  if (start < text.length && options.allowTruncatedTail !== true) throw truncatedTail(events.length + 1);
  return events;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeLine(bytes: Uint8Array, line: number): string {
  try {
    return utf8.decode(bytes);
  } catch (cause) {
    throw new EventsError("EVENTS_INVALID", `Invalid event on line ${line}: the line is not valid UTF-8.`, {
      line,
      keyPath: "",
      cause,
    });
  }
}

/**
 * Reads and strictly validates an events.jsonl file. Errors: `EVENTS_NOT_FOUND`,
 * `EVENTS_UNREADABLE`, `EVENTS_INVALID`, `EVENTS_TRUNCATED` (see `parseEventsText`).
 */
export async function readEvents(path: string, options: ReadEventsOptions = {}): Promise<AgentChaosEvent[]> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new EventsError("EVENTS_NOT_FOUND", "Events file not found.", { cause });
    }
    throw new EventsError("EVENTS_UNREADABLE", "Events file is unreadable.", { cause });
  }
  // Decoded and parsed one line at a time (the whole text is never one string); the tail after
  // the last newline stays bytes, since a crash may have cut a UTF-8 sequence.
  const events: AgentChaosEvent[] = [];
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
    const line = events.length + 1;
    events.push(parseEventLine(decodeLine(bytes.subarray(start, end), line), line));
    start = end + 1;
  }
  if (start < bytes.length && options.allowTruncatedTail !== true) throw truncatedTail(events.length + 1);
  return events;
}
