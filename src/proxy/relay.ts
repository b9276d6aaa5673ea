import type { ResponseRelay, UpstreamControl } from "../faults/types.js";
import { isEventStream } from "../support/http-headers.js";
import { BufferedRelay } from "./buffered-relay.js";
import { HTTP_COMPLETION } from "./completion-rule.js";
import type { Exchange } from "./exchange.js";
import { StreamRelay } from "./stream-relay.js";

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The proxy's own relay: `text/event-stream` responses are streamed chunk by chunk, every
 * other response is buffered whole (up to 10 MiB). Either way the terminal event is recorded
 * before the response is completed towards the workload. `acting`: a fault acts on this
 * response (a held one), so a workload that closes its event stream has failed.
 */
export function defaultRelay(exchange: Exchange, acting: boolean): ResponseRelay {
  return new DefaultRelay(exchange, acting);
}

/**
 * A relay that buffers the answer unless its head says it is a stream: then the relay
 * `streamFor` gives takes it from the start. Every path's relay is one (HTTP, MCP over HTTP).
 */
export abstract class SwitchingRelay implements ResponseRelay {
  #active: ResponseRelay;

  constructor(buffered: ResponseRelay) {
    this.#active = buffered;
  }

  /** The relay that streams an answer with this head, or null to keep buffering it. */
  protected abstract streamFor(status: number, headers: Headers): ResponseRelay | null;

  start(status: number, headers: Headers, control: UpstreamControl): void {
    const stream = this.streamFor(status, headers);
    if (stream !== null) this.#active = stream;
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

class DefaultRelay extends SwitchingRelay {
  readonly #exchange: Exchange;
  readonly #acting: boolean;

  constructor(exchange: Exchange, acting: boolean) {
    super(new BufferedRelay(exchange, HTTP_COMPLETION));
    this.#exchange = exchange;
    this.#acting = acting;
  }

  protected streamFor(_status: number, headers: Headers): ResponseRelay | null {
    return isEventStream(headers) ? new StreamRelay(this.#exchange, this.#acting) : null;
  }
}
