import type { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { ResponseRelay, UpstreamControl } from "../faults/types.js";
import { BODY_LIMIT } from "../support/body-limit.js";
import { isEventStream } from "../support/http-headers.js";
import { UsageReader } from "./usage-reader.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Passes every relay call on unchanged and reads the answer's token usage on the side, for the
 * token quotas that let the request through (docs/triggers.md). Only a 2xx answer counts; a
 * compressed one is decompressed for reading (what is relayed is never touched).
 */
export function tapUsage(relay: ResponseRelay, count: (tokens: number) => void): ResponseRelay {
  let reader: UsageReader | null = null;
  let decoder: StringDecoder | null = null;
  let inflater: Transform | null = null;
  const take = (tokens: number) => {
    if (tokens > 0) count(tokens);
  };
  const stop = () => {
    reader = null;
    inflater?.destroy();
    inflater = null;
  };
  return {
    start(status: number, headers: Headers, control: UpstreamControl) {
      if (status >= 200 && status < 300) {
        const current = new UsageReader(isEventStream(headers), BODY_LIMIT);
        const text = new StringDecoder("utf8");
        reader = current;
        decoder = text;
        inflater = decompressorFor(headers["content-encoding"]);
        if (inflater !== null) {
          inflater.on("data", (chunk: Buffer) => take(current.feed(text.write(chunk))));
          inflater.on("end", () => take(current.feed(text.end()) + current.end()));
          inflater.on("error", stop);
        }
      }
      relay.start(status, headers, control);
    },
    data(chunk: Buffer) {
      if (inflater !== null) inflater.write(chunk);
      else if (reader !== null && decoder !== null) take(reader.feed(decoder.write(chunk)));
      relay.data(chunk);
    },
    end() {
      if (inflater !== null) inflater.end();
      else if (reader !== null && decoder !== null) take(reader.feed(decoder.end()) + reader.end());
      reader = null;
      relay.end();
    },
    error(error: Error) {
      stop();
      relay.error(error);
    },
  };
}

function decompressorFor(encoding: string | string[] | undefined): Transform | null {
  const value = (Array.isArray(encoding) ? encoding.join(",") : (encoding ?? "")).trim().toLowerCase();
  if (value === "gzip" || value === "x-gzip") return createGunzip();
  if (value === "deflate") return createInflate();
  if (value === "br") return createBrotliDecompress();
  return null;
}
