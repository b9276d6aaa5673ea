import { createHash, type Hash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { BODY_LIMIT } from "../support/body-limit.js";
import { bodyHash } from "./fingerprint.js";

export interface RequestBody {
  /** The whole body, or null when it is empty or exceeded the limit. */
  readonly bytes: Buffer | null;
  /** SHA-256 of every byte received, also for an oversized body. */
  readonly hash: string;
  readonly tooLarge: boolean;
}

/**
 * Reads a request body whole, up to `BODY_LIMIT`. Past the limit it stops buffering but keeps
 * draining and hashing, so an oversized request still gets a `body_hash` of all its bytes and
 * the client can finish sending before it reads the 413. `done` is not called when the
 * request is aborted before its end (such a request is never an operation).
 */
export function readBody(request: IncomingMessage, done: (body: RequestBody) => void): void {
  let chunks: Buffer[] = [];
  let size = 0;
  let overflow: Hash | null = null;
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (overflow !== null) {
      overflow.update(chunk);
    } else if (size <= BODY_LIMIT) {
      chunks.push(chunk);
    } else {
      overflow = createHash("sha256");
      for (const kept of chunks) overflow.update(kept);
      overflow.update(chunk);
      chunks = [];
    }
  });
  request.on("end", () => {
    if (overflow !== null) {
      done({ bytes: null, hash: overflow.digest("hex"), tooLarge: true });
      return;
    }
    const bytes =
      chunks.length === 0 ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    done({ bytes, hash: bodyHash(bytes ?? Buffer.alloc(0)), tooLarge: false });
  });
  request.on("error", () => {});
}
