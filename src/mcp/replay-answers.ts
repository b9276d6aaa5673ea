/**
 * Recorded JSON-RPC answers fitted to the live request (docs/replay.md, MCP): the response in a
 * recorded answer carries the recorded request's id; the replayed one carries the live id,
 * whether the answer is one JSON body, one line, or the event of an event stream that holds it.
 * Server requests and notifications in a recorded stream keep their own ids.
 */

import { isJsonObject, parseJson } from "../support/json-text.js";

function isResponse(value: unknown): value is Record<string, unknown> {
  return (
    isJsonObject(value) && "id" in value && !("method" in value) && ("result" in value || "error" in value)
  );
}

/** One JSON-RPC message's text with a response's id replaced by `rawId` (JSON text); else unchanged. */
export function withAnswerId(text: string, rawId: string): string {
  const parsed = parseJson(text);
  if (!isResponse(parsed)) return text;
  parsed.id = JSON.parse(rawId);
  return JSON.stringify(parsed);
}

const DATA_LINE = /^data: ?/;

/** One recorded event's raw text with the response in its `data` line carrying `rawId`. */
export function eventWithAnswerId(text: string, rawId: string): string {
  return text
    .split("\n")
    .map((line) => {
      const prefix = DATA_LINE.exec(line);
      if (prefix === null) return line;
      const cr = line.endsWith("\r") ? "\r" : "";
      const data = line.slice(prefix[0].length, line.length - cr.length);
      return `${prefix[0]}${withAnswerId(data, rawId)}${cr}`;
    })
    .join("\n");
}

/** The params of a request as its key sees them: `_meta` never takes part. */
export function paramsWithoutMeta(params: unknown): unknown {
  if (params === null || typeof params !== "object" || Array.isArray(params) || !("_meta" in params))
    return params;
  const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
  return rest;
}
