import { StringDecoder } from "node:string_decoder";
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
} from "node:zlib";
import type { ResponseHeaders, ResponseRelay, UpstreamControl } from "../faults/types.js";
import { BODY_LIMIT } from "../support/body-limit.js";
import { isEventStream } from "../support/http-headers.js";
import { UsageReader } from "./usage-reader.js";

type Encoding = "gzip" | "deflate" | "br" | null;

/**
 * Passes every relay call on unchanged and reads the answer's token usage on the side, for the
 * token quotas that let the request through (docs/triggers.md). Only a 2xx answer counts. A
 * JSON body is counted before it is completed towards the workload; an event stream as its
 * usage arrives. A compressed answer is decompressed for reading only (what is relayed is never
 * touched), within the proxy's body limit.
 */
export function tapUsage(relay: ResponseRelay, count: (tokens: number) => void): ResponseRelay {
  let side: ((chunk: Buffer | null) => void) | null = null;
  return {
    start(status: number, headers: ResponseHeaders, control: UpstreamControl) {
      if (status >= 200 && status < 300) {
        const encoding = encodingOf(headers["content-encoding"]);
        side = isEventStream(headers) ? streamReader(encoding, count) : bodyReader(encoding, count);
      }
      relay.start(status, headers, control);
    },
    data(chunk: Buffer) {
      side?.(chunk);
      relay.data(chunk);
    },
    end() {
      side?.(null);
      side = null;
      relay.end();
    },
    error(error: Error) {
      side = null;
      relay.error(error);
    },
  };
}

/** A whole JSON body: its chunks kept (up to the limit), read at its end. `null` ends it. */
function bodyReader(encoding: Encoding, count: (tokens: number) => void): (chunk: Buffer | null) => void {
  const chunks: Buffer[] = [];
  let size = 0;
  return (chunk) => {
    if (chunk !== null) {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      return;
    }
    if (size > BODY_LIMIT) return;
    let body: Buffer;
    try {
      body = decompressSync(Buffer.concat(chunks, size), encoding);
    } catch {
      return;
    }
    const reader = new UsageReader(false, BODY_LIMIT);
    reader.feed(body.toString("utf8"));
    const tokens = reader.end();
    if (tokens > 0) count(tokens);
  };
}

/** An event stream: read as it arrives (through a decompressor when it is compressed). */
function streamReader(encoding: Encoding, count: (tokens: number) => void): (chunk: Buffer | null) => void {
  const reader = new UsageReader(true, BODY_LIMIT);
  const text = new StringDecoder("utf8");
  const take = (tokens: number) => {
    if (tokens > 0) count(tokens);
  };
  const read = (chunk: Buffer | null) => {
    if (chunk === null) take(reader.feed(text.end()) + reader.end());
    else take(reader.feed(text.write(chunk)));
  };
  if (encoding === null) return read;
  const inflater =
    encoding === "gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : createBrotliDecompress();
  inflater.on("data", (chunk: Buffer) => read(chunk));
  inflater.on("end", () => read(null));
  inflater.on("error", () => inflater.removeAllListeners("data"));
  return (chunk) => {
    if (chunk === null) inflater.end();
    else inflater.write(chunk);
  };
}

function decompressSync(body: Buffer, encoding: Encoding): Buffer {
  const options = { maxOutputLength: BODY_LIMIT };
  if (encoding === "gzip") return gunzipSync(body, options);
  if (encoding === "deflate") return inflateSync(body, options);
  if (encoding === "br") return brotliDecompressSync(body, options);
  return body;
}

function encodingOf(header: string | string[] | undefined): Encoding {
  const value = (Array.isArray(header) ? header.join(",") : (header ?? "")).trim().toLowerCase();
  if (value === "gzip" || value === "x-gzip") return "gzip";
  if (value === "deflate") return "deflate";
  if (value === "br") return "br";
  return null;
}
