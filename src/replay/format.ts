/**
 * The cassette file, version 1 (docs/replay.md "Cassette format"): JSON Lines, a header line
 * then one interaction per line in the order the upstream answered. Every object is written
 * with its keys in the order listed here, so two recordings of the same traffic diff cleanly.
 */
import type { ReplayMatchField } from "../scenario/types.js";

export const CASSETTE_VERSION = 1;

export interface CassetteHeader {
  readonly cassette: number;
  readonly dependency: string;
  readonly protocol: "http" | "mcp";
  /** ISO-8601 UTC. */
  readonly recorded_at: string;
  readonly agentchaos_version: string;
  readonly match: readonly ReplayMatchField[];
  /** 32 hex digits, random per cassette: the salt of every `request_shape` hash. */
  readonly salt: string;
}

/** One event of a recorded `text/event-stream` response. */
export interface RecordedEvent {
  /** Milliseconds from the response head to this event's last byte. */
  readonly offset_ms: number;
  /** The event's raw text, its blank line included. */
  readonly text: string;
}

/** The request fields a key is made of (the proxy's operation identity). */
export interface RequestKeyFields {
  readonly method: string;
  readonly path: string;
  readonly query_hash: string;
  /** The identity body hash (identity.ignore_json_fields applied). */
  readonly body_hash: string;
}

/** One request (as hashes and a salted shape) and the upstream's answer. */
export interface Interaction extends RequestKeyFields {
  /** JSON Pointer → SHA-256 of salt and value, for each leaf of a JSON body ("" for other bodies). */
  readonly request_shape: Readonly<Record<string, string>>;
  readonly status: number;
  /** Allowlisted response headers, lower-case names in sorted order. */
  readonly headers: Readonly<Record<string, string>>;
  /** The response body as UTF-8 text (absent for event streams and non-UTF-8 bodies). */
  readonly body?: string;
  readonly body_base64?: string;
  /** A `text/event-stream` response's events (then there is no body key). */
  readonly events?: readonly RecordedEvent[];
}

export const HEADER_KEYS = [
  "cassette",
  "dependency",
  "protocol",
  "recorded_at",
  "agentchaos_version",
  "match",
  "salt",
] as const;
export const INTERACTION_KEYS = [
  "method",
  "path",
  "query_hash",
  "body_hash",
  "request_shape",
  "status",
  "headers",
  "body",
  "body_base64",
  "events",
] as const;
export const EVENT_KEYS = ["offset_ms", "text"] as const;

function ordered(value: object, keys: readonly string[]): Record<string, unknown> {
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as string;
  return out;
}

export function headerLine(header: CassetteHeader): string {
  return JSON.stringify(ordered(header, HEADER_KEYS));
}

export function interactionLine(interaction: Interaction): string {
  const events = interaction.events?.map((event) => ordered(event, EVENT_KEYS));
  return JSON.stringify(
    ordered(
      {
        ...interaction,
        request_shape: sortedRecord(interaction.request_shape),
        headers: sortedRecord(interaction.headers),
        ...(events === undefined ? {} : { events }),
      },
      INTERACTION_KEYS,
    ),
  );
}

/** The whole file's text. */
export function cassetteText(header: CassetteHeader, interactions: readonly Interaction[]): string {
  return `${[headerLine(header), ...interactions.map(interactionLine)].join("\n")}\n`;
}

/** The key of a request under `match`: the fields `match` leaves out do not count. */
export function replayKey(match: readonly ReplayMatchField[], request: RequestKeyFields): string {
  return [
    match.includes("method") ? request.method.toUpperCase() : "",
    match.includes("path") ? request.path : "",
    match.includes("query") ? request.query_hash : "",
    match.includes("body") ? request.body_hash : "",
  ].join("\0");
}
