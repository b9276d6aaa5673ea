import { PAYLOAD_FIELDS_ADDITIONS } from "./addition-fields.js";
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
import { LEGACY_PAYLOAD_FIELDS } from "./legacy/payload-fields.js";
import { LEGACY_EVENT_COMPONENT, type LegacyEvent } from "./legacy/types.js";
import { type ReadEventsOptions, streamEventLines, truncatedTail } from "./line-stream.js";
import { PAYLOAD_FIELDS } from "./payload-fields.js";
import { type AgentChaosEvent, EVENT_COMPONENT } from "./types.js";

export { EventsError, type EventsErrorCode } from "./events-error.js";
export type { ReadEventsOptions } from "./line-stream.js";

/** What differs between the event schemas: the version, the payload shapes and the components. */
interface Profile {
  readonly envelope: Shape;
  readonly payloads: Readonly<Record<string, Shape>>;
  readonly components: Readonly<Record<string, string>>;
}

/**
 * A key as it may appear in an error: identifier-like names (all documented keys are) as they
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

function profileOf(
  version: number,
  payloadFields: Readonly<Record<string, Record<string, FieldCheck>>>,
  components: Readonly<Record<string, string>>,
): Profile {
  const types = Object.keys(payloadFields);
  /** Envelope keys in documented order; `type`, `component` and `payload` are checked separately. */
  const envelope = shapeOf({
    schema_version: { test: (v) => v === version, expected: String(version) },
    event_id: uuid,
    run_id: string,
    sequence: positiveInteger,
    timestamp: utcTimestamp,
    elapsed_ms: nonNegativeInteger,
    type: oneOf(types),
    component: oneOf([...new Set(Object.values(components))]),
    payload: null,
  });
  const payloads = Object.fromEntries(
    types.map((type) => [type, shapeOf({ kind: null, ...payloadFields[type] })]),
  );
  return { envelope, payloads, components };
}

const SCHEMA_1_PROFILE = profileOf(1, LEGACY_PAYLOAD_FIELDS, LEGACY_EVENT_COMPONENT);
const SCHEMA_2_PROFILE = profileOf(2, PAYLOAD_FIELDS, EVENT_COMPONENT);
const SCHEMA_3_PROFILE = profileOf(3, PAYLOAD_FIELDS_ADDITIONS, EVENT_COMPONENT);

/** Whether a parsed object has exactly `keys` (it has no inherited enumerable keys). */
function hasExactly(object: Record<string, unknown>, keys: readonly string[]): boolean {
  let count = 0;
  for (const _key in object) count++;
  if (count !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(object, key)) return false;
  return true;
}

/** Exactly the expected keys: an unknown key is reported first, then a missing one. */
function checkKeys(object: Record<string, unknown>, shape: Shape, line: number, prefix: string): void {
  if (hasExactly(object, shape.keys)) return;
  const present = Object.keys(object);
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

function parseWith(profile: Profile, line: string, lineNumber: number): unknown {
  let value: unknown;
  try {
    value = parseJsonLine(line);
  } catch {
    // The SyntaxError is not kept as the cause: V8 quotes the offending text in its message.
    throw EventsError.invalid(lineNumber, "", "is not valid JSON");
  }
  if (!isPlainObject(value)) throw EventsError.invalid(lineNumber, "", "must be a JSON object");
  checkKeys(value, profile.envelope, lineNumber, "");
  checkFields(value, profile.envelope, lineNumber, "");

  const type = value.type as string;
  const component = profile.components[type];
  if (value.component !== component) {
    throw EventsError.invalid(lineNumber, "component", `must be ${component} for this type`);
  }
  const payload = value.payload;
  if (!isPlainObject(payload)) throw EventsError.invalid(lineNumber, "payload", "must be an object");
  if (!Object.hasOwn(payload, "kind")) throw EventsError.invalid(lineNumber, "payload.kind", "is missing");
  if (payload.kind !== type) throw EventsError.invalid(lineNumber, "payload.kind", "must equal type");
  const shape = profile.payloads[type] as Shape;
  checkKeys(payload, shape, lineNumber, "payload.");
  checkFields(payload, shape, lineNumber, "payload.");
  return value;
}

/**
 * Parses and strictly validates one line of events.jsonl (docs/events.md): exactly the envelope
 * keys, exactly the payload keys of the type, `type` equal to `payload.kind`, the component of
 * the type, integers written as integers. Throws `EventsError` (`EVENTS_INVALID`) naming the
 * line and the key path. Key order is not checked.
 */
export function parseLegacyEventLine(line: string, lineNumber: number): LegacyEvent {
  return parseWith(SCHEMA_1_PROFILE, line, lineNumber) as LegacyEvent;
}

/** `parseLegacyEventLine` for event schema 2 (docs/events.md): the same rules with the schema-2 payloads. */
export function parseEventLine(line: string, lineNumber: number): AgentChaosEvent {
  return parseWith(SCHEMA_2_PROFILE, line, lineNumber) as AgentChaosEvent;
}

/** `parseLegacyEventLine` for events schema 3, the schema of runs that use an addition (docs/events.md). */
export function parseEventLine3(line: string, lineNumber: number): AgentChaosEvent {
  return parseWith(SCHEMA_3_PROFILE, line, lineNumber) as AgentChaosEvent;
}

/** The line parser of an internal-model events schema (2, or 3 with the additions). */
export function eventLineParser(schema: 2 | 3): (line: string, lineNumber: number) => AgentChaosEvent {
  return schema === 3 ? parseEventLine3 : parseEventLine;
}

/**
 * Parses the whole text of an events.jsonl file. Every line must end with `\n`; a last line
 * without it is `EVENTS_TRUNCATED` (after every complete line was validated), or dropped with
 * `allowTruncatedTail`. An empty text is an empty stream. Cross-line rules (sequence order,
 * duplicates) are left to the analyzer, which reports them as a result.
 */
export function parseLegacyEventsText(text: string, options: ReadEventsOptions = {}): LegacyEvent[] {
  const events: LegacyEvent[] = [];
  let start = 0;
  // Line by line, so no array of every line's text is ever held next to the parsed events.
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    events.push(parseLegacyEventLine(text.slice(start, end), events.length + 1));
    start = end + 1;
  }
  if (start < text.length && options.allowTruncatedTail !== true) throw truncatedTail(events.length + 1);
  return events;
}

/** Reads a whole events file with `parseLine` (see `streamEventLines`), the events in an array. */
async function readAll<E>(
  path: string,
  parseLine: (line: string, lineNumber: number) => E,
  options: ReadEventsOptions,
): Promise<E[]> {
  const events: E[] = [];
  await streamEventLines(path, parseLine, (event) => events.push(event) > 0, options);
  return events;
}

/**
 * Reads and strictly validates an events.jsonl file of event schema 1. Errors:
 * `EVENTS_NOT_FOUND`, `EVENTS_UNREADABLE`, `EVENTS_INVALID`, `EVENTS_TRUNCATED` (see
 * `parseLegacyEventsText`).
 */
export async function readLegacyEvents(
  path: string,
  options: ReadEventsOptions = {},
): Promise<LegacyEvent[]> {
  return readAll(path, parseLegacyEventLine, options);
}

/**
 * `readLegacyEvents` for event schema 2, or 3 when `schema` says so: every line must be a valid event
 * of that schema.
 */
export async function readEvents(
  path: string,
  options: ReadEventsOptions = {},
  schema: 2 | 3 = 2,
): Promise<AgentChaosEvent[]> {
  return readAll(path, eventLineParser(schema), options);
}

/** The events of a file of either schema, tagged with it. */
export type AnyEvents =
  | { readonly schema: 1; readonly events: LegacyEvent[] }
  | { readonly schema: 2 | 3; readonly events: AgentChaosEvent[] };

/**
 * The schema of a file, from its first complete line: 2 or 3 when that line is a JSON object with
 * that `schema_version`, otherwise 1 (so a first line that is not valid gets schema 1's error).
 */
function schemaOf(firstLine: string): 1 | 2 | 3 {
  try {
    const first = parseJsonLine(firstLine);
    if (!isPlainObject(first)) return 1;
    return first.schema_version === 2 || first.schema_version === 3 ? first.schema_version : 1;
  } catch {
    return 1;
  }
}

/**
 * Reads an events.jsonl file of event schema 1 or 2, strictly. The first line decides the
 * schema and every line must have it (a line of the other schema is `EVENTS_INVALID` at
 * `schema_version`). A file without a complete line reads as schema 1 with no events. Errors as
 * `readLegacyEvents`.
 */
export async function readEventsAny(path: string, options: ReadEventsOptions = {}): Promise<AnyEvents> {
  // Set by the parser of the first line (a closure the compiler does not follow).
  let schema = null as 1 | 2 | 3 | null;
  const events = await readAll(
    path,
    (line, lineNumber): LegacyEvent | AgentChaosEvent => {
      schema ??= schemaOf(line);
      return schema === 1
        ? parseLegacyEventLine(line, lineNumber)
        : eventLineParser(schema)(line, lineNumber);
    },
    options,
  );
  return schema === 2 || schema === 3
    ? { schema, events: events as AgentChaosEvent[] }
    : { schema: 1, events: events as LegacyEvent[] };
}
