import type { OperationIdentity } from "../events/operation.js";
import { canonicalJsonHash } from "../proxy/canonical-hash.js";
import { sha256Hex } from "../proxy/fingerprint.js";
import { isJsonObject } from "../support/json-text.js";

/** The recorded facts of one JSON-RPC request, computed where the request is read. */
export interface McpRequestFacts {
  readonly method: string;
  /** `params.name` (tools/call, prompts/get), `params.uri` (resources/read), else "". */
  readonly path: string;
  /** SHA-256 of the canonical JSON of `params` without `_meta`. */
  readonly bodyHash: string;
}

const NAMED_BY: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** The target name of a request (docs/mcp.md, Operations): a name or URI, never an argument value. */
export function targetName(method: string, params: unknown): string {
  const key = NAMED_BY[method];
  if (key === undefined || !isJsonObject(params)) return "";
  const value = params[key];
  return typeof value === "string" ? value : "";
}

/**
 * `body_hash` of an MCP operation: absent or null params hash as `null`; `_meta` never takes
 * part. `escapeFree`: the params were parsed from text without a backslash (a faster hash).
 */
export function paramsHash(params: unknown, escapeFree = false): string {
  if (params === undefined || params === null) return sha256Hex("null");
  if (!isJsonObject(params) || !("_meta" in params)) return canonicalJsonHash(params, escapeFree);
  const { _meta: _ignored, ...rest } = params;
  return canonicalJsonHash(rest, escapeFree);
}

export function requestFacts(method: string, params: unknown): McpRequestFacts {
  return { method, path: targetName(method, params), bodyHash: paramsHash(params) };
}

/** `fingerprint`: SHA-256 of `"mcp\0" + method + "\0" + path + "\0" + body_hash`; the id never takes part. */
export function mcpFingerprint(facts: McpRequestFacts): string {
  return sha256Hex(`mcp\0${facts.method}\0${facts.path}\0${facts.bodyHash}`);
}

/** The operation identity of an MCP request; `session` is the stdio session number, null over HTTP. */
export function mcpIdentity(facts: McpRequestFacts, session: number | null): OperationIdentity {
  return {
    method: facts.method,
    path: facts.path,
    queryHash: null,
    bodyHash: facts.bodyHash,
    fingerprint: mcpFingerprint(facts),
    protocol: "mcp",
    session,
    idempotencyKeyHash: null,
  };
}
