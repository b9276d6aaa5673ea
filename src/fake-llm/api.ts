import type { Reply } from "./reply.js";
import type { SseEvent } from "./sse.js";
import type { JsonObject, Turn } from "./turn.js";

/** One model API the fake speaks: how to read its requests and write its answers. */
export interface LlmApi {
  /** Reads a request body; a string is why the request is invalid (answered with status 400). */
  readTurn(body: JsonObject): Turn | string;
  /** The non-streaming JSON answer. */
  complete(reply: Reply): unknown;
  /** The streamed answer, as the provider's own sequence of server-sent events. */
  stream(reply: Reply, body: JsonObject): SseEvent[];
  /** The provider's error body (`type` such as `invalid_request_error`). */
  error(type: string, message: string): unknown;
}

/** A fixed `created` timestamp keeps every answer byte-for-byte reproducible. */
export const CREATED = 1_700_000_000;
