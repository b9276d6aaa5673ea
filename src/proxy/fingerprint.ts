import * as nodeCrypto from "node:crypto";

/**
 * Lowercase hex SHA-256 of a string's UTF-8 bytes, or of raw bytes. Where Node.js hashes in one
 * call (`crypto.hash`, 20.12 and later) no Hash object is made: a third of the cost for the
 * short texts hashed per operation.
 */
export function sha256Hex(data: string | Uint8Array): string {
  if (typeof nodeCrypto.hash === "function") return nodeCrypto.hash("sha256", data, "hex");
  return nodeCrypto.createHash("sha256").update(data).digest("hex");
}

// Pure: a bundle that never reads it leaves it out (and need not load node:crypto to start).
const EMPTY_HASH = /* @__PURE__ */ sha256Hex("");

/** `query_hash`: SHA-256 of the raw query string without `?` (the empty string when there is none). */
export function queryHash(rawQuery: string): string {
  return rawQuery === "" ? EMPTY_HASH : sha256Hex(rawQuery);
}

/** `body_hash`: SHA-256 of the request body bytes. */
export function bodyHash(body: Uint8Array): string {
  return body.length === 0 ? EMPTY_HASH : sha256Hex(body);
}

/** Fingerprints of recent requests: an agent repeats few distinct requests, and hashing is not free. */
const recentFingerprints = new Map<string, string>();
const RECENT_FINGERPRINTS = 1024;

/** `fingerprint`: SHA-256 of `METHOD \0 path \0 query_hash \0 body_hash`, method upper-cased. */
export function fingerprint(method: string, path: string, queryHashHex: string, bodyHashHex: string): string {
  const input = `${method.toUpperCase()}\0${path}\0${queryHashHex}\0${bodyHashHex}`;
  let hash = recentFingerprints.get(input);
  if (hash === undefined) {
    hash = sha256Hex(input);
    // Oldest first out: the map keeps insertion order.
    if (recentFingerprints.size >= RECENT_FINGERPRINTS)
      recentFingerprints.delete(recentFingerprints.keys().next().value as string);
    recentFingerprints.set(input, hash);
  }
  return hash;
}

/**
 * Percent-decodes a request path the way the operation's `path` is defined: `%XX` escapes
 * become bytes, the bytes are read as UTF-8 and invalid sequences become U+FFFD (never throws).
 */
export function decodePath(rawPath: string): string {
  if (!rawPath.includes("%")) return rawPath;
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of rawPath.matchAll(/%[0-9A-Fa-f]{2}/g)) {
    parts.push(Buffer.from(rawPath.slice(last, match.index), "utf8"));
    parts.push(Buffer.of(Number.parseInt(match[0].slice(1), 16)));
    last = match.index + 3;
  }
  parts.push(Buffer.from(rawPath.slice(last), "utf8"));
  return Buffer.concat(parts).toString("utf8");
}
