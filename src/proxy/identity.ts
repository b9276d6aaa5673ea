import type { IncomingMessage } from "node:http";
import type { RequestBody } from "./body.js";
import { sha256Hex } from "./fingerprint.js";

/** What makes two requests "the same request" for one dependency (v2/scenario.md, identity). */
export interface IdentityRule {
  /** True when the fingerprint takes the body hash unchanged (no `ignore_json_fields`). */
  readonly bodyAsIs: boolean;
  /** The body hash that takes part in the fingerprint (`body_hash` itself stays the bytes' hash). */
  fingerprintBodyHash(body: RequestBody): string;
  /** SHA-256 hex of the `Idempotency-Key` header value, or null without one. */
  idempotencyKeyHash(request: IncomingMessage): string | null;
}

/** RFC 6901: `/a/b~1c` → ["a", "b/c"]. The pointers were validated with the scenario. */
export function pointerTokens(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
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

/** `idempotency_key_hash`: SHA-256 hex of the header value (repeated ones joined by ", "), or null. */
export function idempotencyKeyHash(value: string | null): string | null {
  return value === null ? null : sha256Hex(value);
}

function headerValue(request: IncomingMessage): string | null {
  const value = request.headers["idempotency-key"];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The rule of one dependency; with no pointers the body hash is used unchanged (schema 1). */
export function identityRule(ignoreJsonFields: readonly string[]): IdentityRule {
  const pointers = ignoreJsonFields.map(pointerTokens);
  return {
    bodyAsIs: pointers.length === 0,
    fingerprintBodyHash(body) {
      if (pointers.length === 0 || body.bytes === null) return body.hash;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.bytes.toString("utf8"));
      } catch {
        return body.hash;
      }
      for (const tokens of pointers) removeAt(parsed, tokens);
      return sha256Hex(canonicalJson(parsed));
    },
    idempotencyKeyHash(request) {
      return idempotencyKeyHash(headerValue(request));
    },
  };
}
