/**
 * The salted shape of a request body (docs/replay.md): for a JSON body, each leaf's JSON
 * Pointer with the SHA-256 of the cassette's salt and the leaf's JSON text; for any other
 * non-empty body, the pointer "" with the hash of its bytes. Enough to say where two bodies
 * differ, never what they hold: the salt is random per cassette, so a short secret cannot be
 * found by hashing guesses against a table made in advance.
 */
import { createHash, randomBytes } from "node:crypto";
import { parseJson } from "../support/json-text.js";

/** A body with more leaves keeps the first ones, in document order. */
export const MAX_SHAPE_POINTERS = 4096;

export type RequestShape = Readonly<Record<string, string>>;

export function newSalt(): string {
  return randomBytes(16).toString("hex");
}

function saltedHash(salt: string, text: string | Uint8Array): string {
  return createHash("sha256").update(salt).update("\n").update(text).digest("hex");
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Whether `pointer` is `prefix` or lies under it. */
function under(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}

/**
 * The shape of `body` (null or empty: no pointers). `ignore`: JSON Pointers left out, with
 * everything under them (the dependency's identity.ignore_json_fields).
 */
export function requestShape(
  body: Uint8Array | null,
  salt: string,
  ignore: readonly string[] = [],
): Record<string, string> {
  const shape: Record<string, string> = {};
  if (body === null || body.length === 0) return shape;
  const parsed = parseJson(Buffer.from(body).toString("utf8"));
  if (parsed === undefined) {
    shape[""] = saltedHash(salt, body);
    return shape;
  }
  let count = 0;
  const walk = (value: unknown, pointer: string): void => {
    if (count >= MAX_SHAPE_POINTERS) return;
    if (ignore.some((prefix) => under(pointer, prefix))) return;
    if (value !== null && typeof value === "object") {
      const entries = Array.isArray(value)
        ? value.map((item, index) => [String(index), item] as const)
        : Object.entries(value as Record<string, unknown>);
      if (entries.length > 0) {
        for (const [token, item] of entries) walk(item, `${pointer}/${escapeToken(token)}`);
        return;
      }
    }
    count += 1;
    shape[pointer] = saltedHash(salt, JSON.stringify(value) ?? "null");
  };
  walk(parsed, "");
  return shape;
}

/** The pointers where two shapes differ (present in one only, or with another hash), sorted. */
export function differingPointers(recorded: RequestShape, live: RequestShape): string[] {
  const pointers = new Set<string>();
  for (const [pointer, hash] of Object.entries(recorded)) if (live[pointer] !== hash) pointers.add(pointer);
  for (const pointer of Object.keys(live)) if (!(pointer in recorded)) pointers.add(pointer);
  return [...pointers].sort();
}
