import type { FailureKind } from "../../events/types.js";
import type { ResponseHeaders, ResponseRelay, UpstreamControl } from "../../faults/types.js";
import type { Exchange } from "../../proxy/exchange.js";
import { sendSynthetic } from "../../proxy/responses.js";
import { BODY_LIMIT } from "../../support/body-limit.js";
import { isEventStream } from "../../support/http-headers.js";
import type { Cancellations } from "../cancellations.js";
import { findResponse } from "../json-rpc.js";
import { mcpRelay } from "./relay.js";
import { SseDataReader } from "./sse-data.js";

/**
 * How `mcp_oversized` and `mcp_tools_changed` change the answer to one forwarded request over
 * Streamable HTTP (docs/mcp.md).
 */
export interface AnswerChange {
  /** JSON-RPC messages the agent gets before the answer (`notifications/tools/list_changed`). */
  readonly before: readonly string[];
  /** The answer in place of the server's response text, or null to keep it. */
  readonly answer: (text: string) => Buffer | string | null;
  /** Recorded in place of the answer's outcome when `answer` replaced it (`injected_oversized`). */
  readonly failure: FailureKind | null;
}

/** One SSE event carrying `data` (a line of its own per line of the data). */
function sseEvent(data: string): string {
  return `event: message\n${data
    .split("\n")
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;
}

/**
 * The body of an answer of `messages`: one JSON body for one message; for several, an event
 * stream when the agent's request accepts one, else a JSON array.
 */
function messagesBody(exchange: Exchange, messages: readonly string[]): { stream: boolean; body: string } {
  if (messages.length === 1) return { stream: false, body: messages[0] as string };
  const accept = exchange.request.headers.accept;
  if (typeof accept === "string" && accept.toLowerCase().includes("text/event-stream"))
    return { stream: true, body: messages.map(sseEvent).join("") };
  return { stream: false, body: `[${messages.join(",")}]` };
}

/** Answers the agent with `messages` (see `messagesBody`) and no server. */
export function sendMessages(exchange: Exchange, messages: readonly string[], faultType: string): void {
  const { stream, body } = messagesBody(exchange, messages);
  sendSynthetic(exchange.response, {
    status: 200,
    headers: {
      "Content-Type": stream ? "text/event-stream" : "application/json",
      "X-Agent-Chaos-Fault": faultType,
    },
    body,
  });
}

/**
 * The relay of a forwarded request whose answer `change` alters. An event stream is relayed
 * event by event, re-written as `event: message` events (the messages of `before` first, the
 * response event replaced); a JSON answer is buffered (up to the body limit; beyond it the
 * exchange fails as any oversized upstream body) and replaced, and turned into an event stream
 * (or, when the agent accepts none, a JSON array) when messages go before it. The evidence is
 * recorded by the MCP relay it feeds, or as `change.failure` just before.
 */
export function changedRelay(
  exchange: Exchange,
  idKey: string,
  change: AnswerChange,
  cancellations: Cancellations,
): ResponseRelay {
  const inner: ResponseRelay = mcpRelay(exchange, idKey, cancellations);
  let mode: "pass" | "stream" | "buffer" = "pass";
  let reader: SseDataReader | null = null;
  let chunks: Buffer[] = [];
  let size = 0;
  let status = 0;
  let headers: ResponseHeaders = {};
  let control: UpstreamControl | null = null;
  let answered = false;

  const replace = (text: string): string => {
    if (answered || findResponse(text, idKey) === null) return text;
    answered = true;
    const replaced = change.answer(text);
    if (replaced === null) return text;
    if (change.failure !== null) exchange.operation.fail(change.failure, null);
    return typeof replaced === "string" ? replaced : replaced.toString("utf8");
  };
  const passBuffered = (): void => {
    mode = "pass";
    inner.start(status, headers, control as UpstreamControl);
    for (const chunk of chunks.splice(0)) inner.data(chunk);
  };

  return {
    start(upstreamStatus, upstreamHeaders, upstream) {
      status = upstreamStatus;
      headers = upstreamHeaders;
      control = upstream;
      if (status >= 400) {
        inner.start(status, headers, upstream);
      } else if (isEventStream(headers)) {
        mode = "stream";
        reader = new SseDataReader();
        inner.start(status, headers, upstream);
        if (change.before.length > 0) inner.data(Buffer.from(change.before.map(sseEvent).join(""), "utf8"));
      } else {
        mode = "buffer";
      }
    },
    data(chunk) {
      if (mode === "pass") inner.data(chunk);
      else if (mode === "stream") {
        const events = (reader as SseDataReader).push(chunk).map((data) => sseEvent(replace(data)));
        if (events.length > 0) inner.data(Buffer.from(events.join(""), "utf8"));
      } else {
        size += chunk.length;
        chunks.push(chunk);
        if (size > BODY_LIMIT) passBuffered();
      }
    },
    end() {
      if (mode !== "buffer") {
        inner.end();
        return;
      }
      const text = Buffer.concat(chunks, size).toString("utf8");
      chunks = [];
      const answer = replace(text);
      const out: Record<string, string | string[] | undefined> = { ...headers, "content-length": undefined };
      const { stream, body } = messagesBody(exchange, [...change.before, answer]);
      if (stream) out["content-type"] = "text/event-stream";
      inner.start(status, out, control as UpstreamControl);
      inner.data(Buffer.from(body, "utf8"));
      inner.end();
    },
    error(error) {
      if (mode === "buffer") {
        chunks = [];
        mode = "pass";
      }
      inner.error(error);
    },
  };
}
