import type { ResponseRelay, UpstreamControl } from "../../faults/types.js";
import type { Exchange } from "../../proxy/exchange.js";
import { sendSynthetic, UPSTREAM_TOO_LARGE, upstreamFailed } from "../../proxy/responses.js";
import { BODY_LIMIT } from "../../support/body-limit.js";
import { clientResponseHeaders, isEventStream } from "../../support/http-headers.js";
import type { Cancellations } from "../cancellations.js";
import { findResponse } from "../json-rpc.js";
import { recordOutcome } from "../outcome.js";
import { SseDataReader } from "./sse-data.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The relay of the HTTP exchange that carries one JSON-RPC request: the bytes go to the
 * workload untouched (as the proxy's own relay: JSON buffered, event streams chunk by chunk),
 * and the operation is completed by the JSON-RPC response with the request's id, recorded
 * before the workload can read it. An HTTP status of 400 or more fails it as the HTTP proxy
 * does; an exchange that ends without the response fails it `connection_closed`. The answer to
 * a request the agent cancelled is not relayed: a JSON body is replaced by `202 Accepted` with
 * no body, an event stream ends before the event that carries it.
 */
export function mcpRelay(exchange: Exchange, idKey: string, cancellations: Cancellations): ResponseRelay {
  let active: ResponseRelay = new BufferedMcpRelay(exchange, idKey, cancellations);
  return {
    start(status, headers, control) {
      if (status < 400 && isEventStream(headers)) active = new StreamMcpRelay(exchange, idKey, cancellations);
      active.start(status, headers, control);
    },
    data: (chunk) => active.data(chunk),
    end: () => active.end(),
    error: (error) => active.error(error),
  };
}

class BufferedMcpRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #idKey: string;
  readonly #cancellations: Cancellations;
  #chunks: Buffer[] = [];
  #size = 0;
  #status = 0;
  #headers: Headers = {};
  #control: UpstreamControl | null = null;
  #done = false;

  constructor(exchange: Exchange, idKey: string, cancellations: Cancellations) {
    this.#exchange = exchange;
    this.#idKey = idKey;
    this.#cancellations = cancellations;
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
    this.#status = status;
    this.#headers = headers;
    this.#control = control;
  }

  data(chunk: Buffer): void {
    if (this.#done) return;
    this.#size += chunk.length;
    if (this.#size <= BODY_LIMIT) {
      this.#chunks.push(chunk);
      return;
    }
    this.#done = true;
    this.#chunks = [];
    this.#control?.abort();
    this.#exchange.operation.fail("proxy_error", 502);
    sendSynthetic(this.#exchange.response, UPSTREAM_TOO_LARGE);
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    const { request, response } = this.#exchange;
    const body =
      this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    if (response.destroyed) return;
    if (this.#cancellations.cancelled(this.#exchange.operation)) {
      this.#record(body);
      response.writeHead(202, { "content-length": 0 });
      response.end();
      return;
    }
    const headers = clientResponseHeaders(this.#headers);
    const status = this.#status;
    if (request.method !== "HEAD" && status !== 204 && status !== 304) headers["content-length"] = this.#size;
    try {
      response.writeHead(status, headers);
    } catch (error) {
      this.#done = false;
      this.error(error instanceof Error ? error : new Error("invalid upstream header"));
      return;
    }
    this.#record(body);
    response.end(body);
  }

  error(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks = [];
    this.#exchange.operation.fail("proxy_error", 502);
    sendSynthetic(this.#exchange.response, upstreamFailed(error));
  }

  #record(body: Buffer): void {
    const { operation } = this.#exchange;
    if (this.#status >= 400) {
      operation.settle(this.#status);
      return;
    }
    const outcome = findResponse(body.toString("utf8"), this.#idKey);
    if (outcome === null) operation.fail("connection_closed", null);
    else recordOutcome(operation, outcome);
  }
}

class StreamMcpRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #idKey: string;
  readonly #cancellations: Cancellations;
  readonly #reader = new SseDataReader();
  #control: UpstreamControl | null = null;
  #events = 0;
  #answered = false;
  /** Set once the relay answered on its own (a header the workload's side rejects). */
  #replaced = false;

  constructor(exchange: Exchange, idKey: string, cancellations: Cancellations) {
    this.#exchange = exchange;
    this.#idKey = idKey;
    this.#cancellations = cancellations;
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
    const { operation, response } = this.#exchange;
    this.#control = control;
    try {
      response.writeHead(status, clientResponseHeaders(headers));
    } catch (error) {
      this.#replaced = true;
      control.abort();
      operation.fail("proxy_error", 502);
      sendSynthetic(response, upstreamFailed(error));
      return;
    }
    response.on("drain", () => control.resume());
    response.once("close", () => {
      if (!response.writableFinished) control.abort();
    });
    response.flushHeaders();
  }

  data(chunk: Buffer): void {
    if (this.#replaced) return;
    // Evidence first: the event that completes the response is recorded before its bytes go out.
    for (const data of this.#reader.push(chunk)) {
      this.#events++;
      if (this.#answered) continue;
      const outcome = findResponse(data, this.#idKey);
      if (outcome === null) continue;
      this.#answered = true;
      recordOutcome(this.#exchange.operation, outcome, { relayedEvents: this.#events });
      if (this.#cancellations.cancelled(this.#exchange.operation)) {
        // The agent cancelled it: the stream ends before the answer.
        this.#replaced = true;
        this.#control?.abort();
        this.#exchange.response.end();
        return;
      }
    }
    if (!this.#exchange.response.write(chunk)) this.#control?.pause();
  }

  end(): void {
    if (this.#replaced) return;
    this.#unanswered();
    this.#exchange.response.end();
  }

  error(): void {
    if (this.#replaced) return;
    this.#unanswered();
    this.#exchange.response.destroy();
    this.#exchange.request.socket.destroy();
  }

  #unanswered(): void {
    if (!this.#answered) {
      this.#exchange.operation.fail("connection_closed", null, { relayedEvents: this.#events });
    }
  }
}

/**
 * `mcp_latency` over HTTP: the upstream response (status, headers, body) is held `ms` after it
 * starts arriving, then handed to `inner` as it came. `released` runs once the wait is over,
 * or when the workload's connection ends first (the upstream exchange is then cancelled).
 */
export function delayedRelay(
  inner: ResponseRelay,
  ms: number,
  response: Exchange["response"],
  released: () => void,
): ResponseRelay {
  const queued: (() => void)[] = [];
  let open = false;
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  let control: UpstreamControl | null = null;
  const finish = (): void => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    response.off("close", onClose);
    released();
  };
  const onClose = (): void => {
    if (open) return;
    finish();
    control?.abort();
  };
  response.once("close", onClose);
  const pass = (call: () => void): void => {
    if (open) call();
    else if (!over) queued.push(call);
  };
  return {
    start(status, headers, upstream) {
      control = upstream;
      queued.push(() => inner.start(status, headers, upstream));
      timer = setTimeout(() => {
        open = true;
        finish();
        for (const call of queued.splice(0)) call();
      }, ms);
    },
    data: (chunk) => pass(() => inner.data(chunk)),
    end: () => pass(() => inner.end()),
    error(error) {
      if (control === null && !over) {
        open = true;
        finish();
      }
      pass(() => inner.error(error));
    },
  };
}
