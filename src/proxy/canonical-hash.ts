import { createHash, type Hash } from "node:crypto";
import { sha256Hex } from "./fingerprint.js";

/** Text is handed to the hash in batches of about this many characters. */
const BATCH = 64 * 1024;
/** A string at least this long goes to the hash by itself, uncopied when nothing in it is escaped. */
const LONG_STRING = 64 * 1024;
/** What `JSON.stringify` may write escaped: quote, backslash, control characters, surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const MAY_NEED_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * SHA-256 (hex) of `canonicalJson(value)`, computed without ever building that text: the pieces
 * go to the hash as they are produced, and a long string that needs no escaping goes to it as
 * it is. A value holding a file of many megabytes is hashed without a copy of it.
 * `escapeFree`: the caller knows no string in `value` needs escaping (it was parsed from UTF-8
 * JSON text without a single backslash), so not even a look for such characters is needed.
 * A text shorter than a batch (the usual case) is hashed in one call, without a Hash object.
 */
export function canonicalJsonHash(value: unknown, escapeFree = false): string {
  let started: Hash | null = null;
  const hash = (): Hash => {
    started ??= createHash("sha256");
    return started;
  };
  let pending = "";
  const write = (text: string): void => {
    pending += text;
    if (pending.length >= BATCH) {
      hash().update(pending);
      pending = "";
    }
  };
  const writeValue = (item: unknown): void => {
    if (
      typeof item === "string" &&
      item.length >= LONG_STRING &&
      (escapeFree || !MAY_NEED_ESCAPE.test(item))
    ) {
      hash().update(`${pending}"`);
      hash().update(item);
      pending = '"';
      return;
    }
    if (item === null || typeof item !== "object") {
      write(JSON.stringify(item) ?? "null");
      return;
    }
    if (Array.isArray(item)) {
      write("[");
      item.forEach((element, index) => {
        if (index > 0) write(",");
        writeValue(element);
      });
      write("]");
      return;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    write("{");
    keys.forEach((key, index) => {
      write(`${index > 0 ? "," : ""}${JSON.stringify(key)}:`);
      writeValue(record[key]);
    });
    write("}");
  };
  writeValue(value);
  // (Assigned in `hash`: the compiler cannot see that `started` may no longer be null here.)
  const batched = started as Hash | null;
  return batched === null ? sha256Hex(pending) : batched.update(pending).digest("hex");
}
