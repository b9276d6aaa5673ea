/**
 * Schema-2 proxy fixtures: an in-memory schema-2 sink, hand-built schema-2 faults, a scripted
 * streaming upstream that knows whether its response was cancelled, and a client that keeps
 * the bytes it received together with the error it saw.
 */
import { request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { PayloadSink } from "../../src/events/operation.js";
import type { EventPayload, EventType, PayloadOf } from "../../src/events/types.js";
import type { ArmableHttpFault } from "../../src/faults/registry.js";
import { type RunningProxy, startProxy } from "../../src/proxy/server.js";
import type { Fault, LlmErrorFault } from "../../src/scenario/types.js";
import { rawExchange } from "./proxy-client.js";
import { onCleanup, sleep, startUpstream, type TestUpstream } from "./proxy-harness.js";

/** Collects schema-2 payloads in recorder order. */
export class MemorySink implements PayloadSink {
  readonly payloads: EventPayload[] = [];

  emit(payload: EventPayload): void {
    this.payloads.push(payload);
  }

  ofKind<T extends EventType>(kind: T): PayloadOf<T>[] {
    return this.payloads.filter((payload): payload is PayloadOf<T> => payload.kind === kind);
  }

  kinds(): EventType[] {
    return this.payloads.map((payload) => payload.kind);
  }
}

/** A schema-2 proxy for dependency `llm` with `faults`, closed after the test. */
export async function startFaultProxy(
  upstreamBaseUrl: string,
  faults: readonly Fault[],
  sink: MemorySink,
): Promise<RunningProxy> {
  const proxy = await startProxy({
    upstreamBaseUrl,
    faults: faults as readonly ArmableHttpFault[],
    sink,
    dependency: "llm",
  });
  onCleanup(() => proxy.close());
  return proxy;
}

const BASE = {
  dependency: "llm",
  target: { kind: "http", method: null, path: "/*" },
  trigger: { kind: "occurrence_schedule", occurrences: [1] },
  expect: "recover",
} as const;

export type Cut = { afterEvents: number; afterBytes?: never } | { afterBytes: number; afterEvents?: never };

function cut(
  spec: Cut,
): { afterEvents: number; afterBytes: null } | { afterEvents: null; afterBytes: number } {
  return spec.afterEvents !== undefined
    ? { afterEvents: spec.afterEvents, afterBytes: null }
    : { afterEvents: null, afterBytes: spec.afterBytes as number };
}

/** Schema-2 faults of the first occurrence of any request, id `f1` unless given. */
export const faults = {
  llmError: (
    options: Pick<LlmErrorFault, "provider" | "statusCode"> &
      Partial<Pick<LlmErrorFault, "retryAfterSeconds" | "retryAfterMs" | "shouldRetry">>,
  ): Fault => ({
    ...BASE,
    id: "f1",
    type: "http_llm_error",
    retryAfterSeconds: null,
    retryAfterMs: null,
    shouldRetry: null,
    ...options,
  }),
  truncate: (at: Cut): Fault => ({ ...BASE, id: "f1", type: "http_stream_truncate", ...cut(at) }),
  reset: (at: Cut): Fault => ({ ...BASE, id: "f1", type: "http_stream_reset", ...cut(at) }),
  stall: (at: Cut, stallMs: number): Fault => ({
    ...BASE,
    id: "f1",
    type: "http_stream_stall",
    stallMs,
    ...cut(at),
  }),
  errorEvent: (at: Cut, format: "openai" | "anthropic"): Fault => ({
    ...BASE,
    id: "f1",
    type: "http_stream_error_event",
    format,
    ...cut(at),
  }),
  responseLost: (): Fault => ({ ...BASE, id: "f1", type: "http_response_lost" }),
};

/** One step of a scripted upstream response: bytes to write, or a pause in milliseconds. */
export type Step = string | Buffer | { readonly pauseMs: number };

export interface ScriptedUpstream extends TestUpstream {
  /** Per request, in arrival order: resolves `true` when its response was closed before it ended. */
  readonly cancelled: Promise<boolean>[];
}

/**
 * An upstream that answers every request with `status`, `headers` and the body `steps`, each
 * write flushed on its own (chunked unless a Content-Length is given); `hold` keeps the
 * response open after the last step instead of ending it; `headersAfterMs` delays the headers.
 */
export async function startScriptedUpstream(
  status: number,
  headers: Record<string, string>,
  steps: readonly Step[],
  options: { hold?: boolean; headersAfterMs?: number } = {},
): Promise<ScriptedUpstream> {
  const cancelled: Promise<boolean>[] = [];
  const upstream = await startUpstream((_request, response) => {
    cancelled.push(
      new Promise((resolve) => response.once("close", () => resolve(!response.writableFinished))),
    );
    void play(response, status, headers, steps, options);
  });
  return { ...upstream, cancelled };
}

async function play(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  steps: readonly Step[],
  options: { hold?: boolean; headersAfterMs?: number },
): Promise<void> {
  if (options.headersAfterMs !== undefined) await sleep(options.headersAfterMs);
  if (response.destroyed) return;
  response.writeHead(status, headers);
  response.flushHeaders();
  for (const step of steps) {
    if (response.destroyed) return;
    if (typeof step === "object" && "pauseMs" in step) await sleep(step.pauseMs);
    else {
      response.write(step);
      // One write per event-loop turn, so that the proxy receives the writes apart.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  if (options.hold !== true && !response.destroyed) response.end();
}

/** Splits `text` into one-byte steps. */
export function byteSteps(text: string): Buffer[] {
  return [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
}

export interface StreamedResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every body byte received (de-chunked). */
  readonly body: Buffer;
  readonly text: string;
  /** Whether the response ended as a complete HTTP message. */
  readonly complete: boolean;
  /** The error the client saw, if any (transport or protocol). */
  readonly error: Error | null;
}

/**
 * When a client abandons its request: once the body text received so far satisfies a test, or
 * once a promise settles (something else happened first).
 */
export type GiveUp = ((received: string) => boolean) | Promise<unknown>;

/**
 * Sends one request with `node:http` (no keep-alive) and keeps every body byte and the error,
 * if any. `giveUpWhen`: the client abandons the request then (error "gave up"); `onEnd` runs
 * when the response ends (before the result resolves).
 */
export function streamFrom(
  url: string,
  options: { method?: string; body?: string; giveUpWhen?: GiveUp; onEnd?: () => void } = {},
): Promise<StreamedResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let settled = false;
    let complete = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      const body = Buffer.concat(chunks);
      resolve({ status, headers, body, text: body.toString("utf8"), complete, error });
    };
    const req = httpRequest(url, { method: options.method ?? "GET", agent: false });
    const giveUp = () => {
      if (!req.destroyed) req.destroy(new Error("gave up"));
    };
    const { giveUpWhen } = options;
    if (giveUpWhen instanceof Promise) void giveUpWhen.then(giveUp, giveUp);
    req.on("error", (error) => finish(error));
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      headers = res.headers;
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        if (typeof giveUpWhen === "function" && giveUpWhen(Buffer.concat(chunks).toString("utf8"))) giveUp();
      });
      res.on("error", (error) => finish(error));
      res.on("end", () => {
        complete = res.complete;
        options.onEnd?.();
        finish(null);
      });
      res.on("close", () => finish(res.complete ? null : new Error("response closed before its end")));
    });
    req.end(options.body);
  });
}

/** A raw `GET` on a fresh connection (`Connection: close`): the head and the raw body bytes as latin1 text. */
export async function rawGet(
  proxyUrl: string,
  path: string,
): Promise<{ head: string; body: string; error: Error | null }> {
  const { bytes, error } = await rawExchange(
    proxyUrl,
    `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`,
  );
  const text = bytes.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  return split < 0
    ? { head: text, body: "", error }
    : { head: text.slice(0, split), body: text.slice(split + 4), error };
}

/** Decodes a chunked body; `terminated` says whether the zero-length last chunk and its CRLF arrived. */
export function dechunk(text: string): { text: string; terminated: boolean } {
  let rest = text;
  let out = "";
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    if (lineEnd < 0) return { text: out, terminated: false };
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (size === 0) return { text: out, terminated: rest.slice(lineEnd + 2).startsWith("\r\n") };
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
