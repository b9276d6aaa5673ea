import { isJsonObject, parseJson } from "../support/json-text.js";
import { rawMember } from "./raw-member.js";

/** How a JSON-RPC response ended its request (docs/mcp.md, terminal evidence). */
export type ResponseOutcome =
  | { readonly kind: "result" }
  | { readonly kind: "tool_error" }
  | { readonly kind: "rpc_error"; readonly code: number | null };

/**
 * One line (stdio) or one POST body (HTTP) as the MCP layer sees it. Payloads stay in
 * `params`; only hashes and names of them are ever recorded.
 */
export type JsonRpcMessage =
  | {
      readonly kind: "request";
      /** The id exactly as received (JSON text), to be written back in synthetic answers. */
      readonly rawId: string;
      /** Matches the request with its response and with `notifications/cancelled`. */
      readonly idKey: string;
      readonly method: string;
      readonly params: unknown;
    }
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "response"; readonly idKey: string; readonly outcome: ResponseOutcome }
  /** Valid JSON-RPC that is none of the above (a batch, a response with a null id). */
  | { readonly kind: "other" }
  /** Not JSON, or JSON that is not a JSON-RPC 2.0 message. */
  | { readonly kind: "malformed" };

const OTHER: JsonRpcMessage = { kind: "other" };
const MALFORMED: JsonRpcMessage = { kind: "malformed" };

/** The key of a JSON-RPC id (string or number), or null for any other value. */
export function idKeyOf(id: unknown): string | null {
  if (typeof id === "string") return `s:${id}`;
  if (typeof id === "number" && Number.isFinite(id)) return `n:${id}`;
  return null;
}

function outcomeOf(message: Record<string, unknown>): ResponseOutcome | null {
  if ("error" in message) {
    const error = message.error;
    const code = isJsonObject(error) && Number.isInteger(error.code) ? (error.code as number) : null;
    return { kind: "rpc_error", code };
  }
  if (!("result" in message)) return null;
  const result = message.result;
  return isJsonObject(result) && result.isError === true ? { kind: "tool_error" } : { kind: "result" };
}

/** Classifies one message's text. Never throws. */
export function classifyMessage(text: string): JsonRpcMessage {
  const parsed = parseJson(text);
  if (parsed === undefined) return MALFORMED;
  if (Array.isArray(parsed)) return parsed.length > 0 && parsed.every(isJsonRpc) ? OTHER : MALFORMED;
  if (!isJsonObject(parsed) || !isJsonRpc(parsed)) return MALFORMED;
  if (typeof parsed.method === "string") {
    if (!("id" in parsed)) return { kind: "notification", method: parsed.method, params: parsed.params };
    const idKey = idKeyOf(parsed.id);
    if (idKey === null) return MALFORMED;
    const rawId = rawMember(text, "id") ?? JSON.stringify(parsed.id);
    return { kind: "request", rawId, idKey, method: parsed.method, params: parsed.params };
  }
  const outcome = outcomeOf(parsed);
  if (outcome === null || !("id" in parsed)) return MALFORMED;
  const idKey = idKeyOf(parsed.id);
  return idKey === null ? OTHER : { kind: "response", idKey, outcome };
}

function isJsonRpc(value: unknown): boolean {
  return isJsonObject(value) && value.jsonrpc === "2.0";
}

/** The id key a `notifications/cancelled` names, or null. */
export function cancelledIdKey(message: JsonRpcMessage): string | null {
  if (message.kind !== "notification" || message.method !== "notifications/cancelled") return null;
  return isJsonObject(message.params) ? idKeyOf(message.params.requestId) : null;
}

/**
 * The outcome of the response to `idKey` held in one JSON text: a single response or an array
 * of them (an `application/json` body, or one SSE event's data). Null when it holds none.
 */
export function findResponse(text: string, idKey: string): ResponseOutcome | null {
  const parsed = parseJson(text);
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!isJsonObject(item) || !isJsonRpc(item) || "method" in item) continue;
    if (idKeyOf(item.id) === idKey) return outcomeOf(item);
  }
  return null;
}
