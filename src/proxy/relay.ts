import type { Operation } from "../events/operation.js";
import type { ResponseHeaders, ResponseRelay, UpstreamControl } from "../faults/types.js";
import { isEventStream } from "../support/http-headers.js";
import { BufferedRelay } from "./buffered-relay.js";
import { type CompletionRule, HTTP_COMPLETION } from "./completion-rule.js";
import type { Exchange } from "./exchange.js";
import { type StreamEventObserver, StreamRelay } from "./stream-relay.js";

/** What a protocol carried over HTTP changes in the default relay (MCP Streamable HTTP, docs/mcp.md). */
export interface RelayProtocol {
  /** How its exchanges complete. */
  readonly rule: CompletionRule;
  /** Reads the events of a streamed answer before their bytes go out (a new one per stream). */
  readonly observer?: (operation: Operation) => StreamEventObserver;
  /**
   * An answer with a status of 400 or more is buffered whole even when it is an event stream:
   * its status decides the operation, never an event it carries.
   */
  readonly bufferErrorStreams?: boolean;
}

const HTTP: RelayProtocol = { rule: HTTP_COMPLETION };

/**
 * The proxy's own relay, for every path (HTTP, MCP over HTTP with its `protocol`):
 * `text/event-stream` responses are streamed chunk by chunk, every other response is buffered
 * whole (up to 10 MiB). Either way the terminal event is recorded before the response is
 * completed towards the workload. `acting`: a fault acts on this response (a held one), so a
 * workload that closes its event stream has failed.
 */
export function defaultRelay(
  exchange: Exchange,
  acting: boolean,
  protocol: RelayProtocol = HTTP,
): ResponseRelay {
  return new DefaultRelay(exchange, acting, protocol);
}

/** Buffers the answer unless its head says it is a stream: then a `StreamRelay` takes it from the start. */
class DefaultRelay implements ResponseRelay {
  readonly #exchange: Exchange;
  readonly #acting: boolean;
  readonly #protocol: RelayProtocol;
  #active: ResponseRelay;

  constructor(exchange: Exchange, acting: boolean, protocol: RelayProtocol) {
    this.#exchange = exchange;
    this.#acting = acting;
    this.#protocol = protocol;
    this.#active = new BufferedRelay(exchange, protocol.rule);
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void {
    const { rule, observer, bufferErrorStreams } = this.#protocol;
    if (isEventStream(headers) && !(bufferErrorStreams === true && status >= 400)) {
      this.#active = new StreamRelay(this.#exchange, {
        rule,
        acting: this.#acting,
        ...(observer === undefined ? {} : { observer: observer(this.#exchange.operation) }),
      });
    }
    this.#active.start(status, headers, control);
  }

  data(chunk: Buffer): void {
    this.#active.data(chunk);
  }

  end(): void {
    this.#active.end();
  }

  error(error: Error): void {
    this.#active.error(error);
  }
}
