import type { ServerResponse } from "node:http";
import type { ResponseHeaders, ResponseRelay, UpstreamControl } from "../faults/types.js";
import { clientResponseHeaders } from "../support/http-headers.js";
import { sendSynthetic, upstreamFailed } from "./responses.js";

/** What a capture sees of an upstream answer while it is passed on. */
export interface AnswerCapture {
  start(status: number, headers: ResponseHeaders): void;
  data(chunk: Buffer): void;
  end(): void;
}

/**
 * Passes a live upstream's answer on to the proxy's request, as it arrives, and hands every
 * part to `capture` too. When the proxy stops reading (a fault cut the response it relays),
 * the answer is still read to its end, so that what is captured is what the upstream said.
 */
export function passOnRelay(response: ServerResponse, capture: AnswerCapture | null): ResponseRelay {
  let control: UpstreamControl | null = null;
  let paused = false;
  const resume = (): void => {
    if (!paused) return;
    paused = false;
    control?.resume();
  };
  response.once("close", resume);
  return {
    start(status, headers, given) {
      control = given;
      capture?.start(status, headers);
      if (!response.destroyed) {
        response.writeHead(status, clientResponseHeaders(headers as Record<string, string>));
        response.flushHeaders();
      }
    },
    data(chunk) {
      capture?.data(chunk);
      if (response.destroyed || response.writableEnded) return;
      if (!response.write(chunk)) {
        paused = true;
        control?.pause();
        response.once("drain", resume);
      }
    },
    end() {
      capture?.end();
      if (!response.destroyed) response.end();
    },
    error(error) {
      // Before the head: the 502 the proxy itself gives a live upstream that fails (the proxy then
      // records what it records for that failure); after it, the cut the upstream made.
      if (!response.headersSent && !response.destroyed) sendSynthetic(response, upstreamFailed(error));
      else response.destroy();
    },
  };
}
