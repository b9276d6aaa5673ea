// Large messages for the relay measurements: a base64 payload of exactly N bytes (a file or an
// image as an agent would send it), cached per size, and a reader that cuts a byte stream into
// lines in linear time (chunks kept in a list, joined once per line).
import { randomBytes } from "node:crypto";

export const MIB = 1024 * 1024;
const payloads = new Map();

/** A base64 text of `bytes` bytes (ASCII, no character that JSON escapes). */
export function payload(bytes) {
  let text = payloads.get(bytes);
  if (text === undefined) {
    text = randomBytes(Math.ceil((bytes * 3) / 4) + 3)
      .toString("base64")
      .slice(0, bytes);
    payloads.set(bytes, text);
  }
  return text;
}

/** Calls `onLine(line)` (a Buffer without its `\n`) for every line read from `stream`. */
export function readLines(stream, onLine) {
  let parts = [];
  let size = 0;
  stream.on("data", (chunk) => {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      onLine(parts.length === 0 ? piece : Buffer.concat([...parts, piece], size + piece.length));
      parts = [];
      size = 0;
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  });
}
