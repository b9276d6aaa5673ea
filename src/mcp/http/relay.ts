import type { ResponseRelay, UpstreamControl } from "../../faults/types.js";
import { BufferedRelay } from "../../proxy/buffered-relay.js";
import type { Exchange } from "../../proxy/exchange.js";
import { SwitchingRelay } from "../../proxy/relay.js";
import { sendSynthetic, upstreamFailed } from "../../proxy/responses.js";
import { clientResponseHeaders, isEventStream } from "../../support/http-headers.js";
import type { Cancellations } from "../cancellations.js";
import { McpCompletion } from "./mcp-completion.js";
import { SseDataReader } from "./sse-data.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The relay of the HTTP exchange that carries one JSON-RPC request: the proxy's own relay (JSON
 * buffered, event streams chunk by chunk, the bytes untouched) with the MCP completion rule
 * (`McpCompletion`): the operation is completed by the JSON-RPC response with the request's id,
 * recorded before the workload can read it. The answer to a request the agent cancelled is not
 * relayed: a JSON body is replaced by `202 Accepted` with no body, an event stream ends before
 * the event that carries it.
 */
export function mcpRelay(exchange: Exchange, idKey: string, cancellations: Cancellations): ResponseRelay {
  return new McpRelay(exchange, new McpCompletion(idKey, cancellations));
}

class McpRelay extends SwitchingRelay {
  readonly #exchange: Exchange;
  readonly #completion: McpCompletion;

  constructor(exchange: Exchange, completion: McpCompletion) {
    super(new BufferedRelay(exchange, completion));
    this.#exchange = exchange;
    this.#completion = completion;
  }

  protected streamFor(status: number, headers: Headers): ResponseRelay | null {
    return status < 400 && isEventStream(headers)
      ? new StreamMcpRelay(this.#exchange, this.#completion)
      : null;
  }
}

/**
 * An event stream that carries the answer: relayed chunk by chunk, each event read for the
 * response with the request's id, whose terminal event is recorded before its bytes go out.
 */
class StreamMcpRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #completion: McpCompletion;
  readonly #reader = new SseDataReader();
  #control: UpstreamControl | null = null;
  #status = 0;
  #headers: Headers = {};
  #events = 0;
  #answered = false;
  /** Set once the relay answered on its own (a header the workload's side rejects). */
  #replaced = false;

  constructor(exchange: Exchange, completion: McpCompletion) {
    this.#exchange = exchange;
    this.#completion = completion;
  }

  start(status: number, headers: Headers, control: UpstreamControl): void {
    const { operation, response } = this.#exchange;
    this.#control = control;
    this.#status = status;
    this.#headers = headers;
    try {
      response.writeHead(status, clientResponseHeaders(headers));
    } catch (error) {
      this.#replaced = true;
      control.abort();
      this.#completion.replaced(operation);
      sendSynthetic(response, upstreamFailed(error));
      return;
    }
    response.on("drain", () => control.resume());
    response.once("close", () => {
      if (response.writableFinished) return;
      // The agent left the stream before its end: the events it was relayed are counted.
      this.#completion.streamLeft(operation, status, headers, this.#events);
      control.abort();
    });
    response.flushHeaders();
  }

  data(chunk: Buffer): void {
    if (this.#replaced) return;
    const { operation } = this.#exchange;
    // Evidence first: the event that completes the response is recorded before its bytes go out.
    for (const data of this.#reader.push(chunk)) {
      this.#events++;
      if (this.#answered) continue;
      if (!this.#completion.answeredBy(operation, data, this.#events)) continue;
      this.#answered = true;
      if (this.#completion.withheld(operation)) {
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
    this.#completion.ended(this.#exchange.operation, this.#status, this.#headers, null, this.#events);
    this.#exchange.response.end();
  }

  error(): void {
    if (this.#replaced) return;
    this.#completion.streamBroke(this.#exchange.operation, this.#status, this.#events);
    this.#exchange.response.destroy();
    this.#exchange.request.socket.destroy();
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
