import type { IncomingMessage } from "node:http";
import type { OperationIdentity } from "../events/operation.js";
import { pointerTokens } from "../faults/corruption/json-pointer.js";
import { parseJson } from "../support/json-text.js";
import type { RequestBody } from "./body.js";
import { canonicalJsonHash } from "./canonical-hash.js";
import { decodePath, fingerprint, queryHash, sha256Hex } from "./fingerprint.js";
import type { RequestTarget } from "./request-target.js";

/** What makes two requests "the same request" for one dependency (docs/scenario.md, identity). */
export interface IdentityRule {
  /** The body hash that takes part in the fingerprint (`body_hash` itself stays the bytes' hash). */
  fingerprintBodyHash(body: RequestBody): string;
}

/** Removes the member a pointer names, if present (array items by index). */
function removeAt(root: unknown, tokens: readonly string[]): void {
  let node: unknown = root;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (node === null || typeof node !== "object") return;
    node = (node as Record<string, unknown>)[tokens[i] as string];
  }
  const last = tokens.at(-1);
  if (last === undefined || node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    if (/^(0|[1-9][0-9]*)$/.test(last) && Number(last) < node.length) node.splice(Number(last), 1);
    return;
  }
  if (Object.hasOwn(node, last)) delete (node as Record<string, unknown>)[last];
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, strings and numbers
 * as `JSON.stringify` writes them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** The `Idempotency-Key` value of a request (repeated ones joined by ", ", as Node joins them), or null. */
export function idempotencyKey(request: IncomingMessage): string | null {
  const value = request.headers["idempotency-key"];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The rule of one dependency; with no pointers the body hash is used unchanged (schema 1). */
export function identityRule(ignoreJsonFields: readonly string[]): IdentityRule {
  const pointers = ignoreJsonFields.map(pointerTokens);
  return {
    fingerprintBodyHash(body) {
      if (pointers.length === 0 || body.bytes === null) return body.hash;
      const parsed = parseJson(body.bytes.toString("utf8"));
      if (parsed === undefined) return body.hash;
      for (const tokens of pointers) removeAt(parsed, tokens);
      return canonicalJsonHash(parsed);
    },
  };
}

/**
 * The recorded identity of one HTTP request, the same whichever path (fast lane or full
 * pipeline) takes it: `idempotencyKeyHash` is the SHA-256 hex of `key`, or null.
 */
export function httpOperationIdentity(
  rule: IdentityRule,
  method: string,
  target: Pick<RequestTarget, "rawPath" | "rawQuery">,
  body: RequestBody,
  key: string | null,
): OperationIdentity {
  const path = decodePath(target.rawPath);
  const query = queryHash(target.rawQuery);
  const print = fingerprint(method, path, query, rule.fingerprintBodyHash(body));
  return {
    method,
    path,
    queryHash: query,
    bodyHash: body.hash,
    fingerprint: print,
    idempotencyKeyHash: key === null ? null : sha256Hex(key),
  };
}
