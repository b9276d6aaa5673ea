import { MAX_TIMER_MS } from "../support/timer-limit.js";
import { type CutSite, relayWithCut } from "./stream/cut-relay.js";
import { cutParameters } from "./stream/parameters.js";
import type { FaultExecutor, FaultOf, ResponseRelay } from "./types.js";

/**
 * `http_stream_stall`: the response up to the cut point, then nothing for `stall_ms`, then the
 * rest. The operation ends as the relay ends it: a success (fault-related) when the rest was
 * relayed, `client_disconnected` when the workload gave up meanwhile.
 */
export const streamStall: FaultExecutor<FaultOf<"http_stream_stall">> = {
  parameters: (fault) => ({ ...cutParameters(fault), stall_ms: fault.stallMs }),
  execute(fault, context) {
    context.forward(relayWithCut(fault, context, (site) => new StalledRelay(site, fault.stallMs)));
  },
};

/** Keeps what the upstream sends after the cut point until the stall is over, then relays it. */
class StalledRelay implements ResponseRelay {
  readonly #site: CutSite;
  #queue: Buffer[] | null = [];
  #ended = false;
  #failure: Error | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(site: CutSite, ms: number) {
    this.#site = site;
    site.upstream.hold();
    this.#wait(ms);
    site.relay.onClose(() => clearTimeout(this.#timer));
  }

  start(): void {}

  data(chunk: Buffer): void {
    if (this.#queue === null) this.#site.relay.data(chunk);
    else this.#queue.push(chunk);
  }

  end(): void {
    if (this.#queue === null) this.#site.relay.end();
    else this.#ended = true;
  }

  error(error: Error): void {
    if (this.#queue === null) this.#site.relay.error(error);
    else this.#failure = error;
  }

  #wait(remaining: number): void {
    this.#timer = setTimeout(
      () => {
        if (remaining > MAX_TIMER_MS) this.#wait(remaining - MAX_TIMER_MS);
        else this.#resume();
      },
      Math.min(remaining, MAX_TIMER_MS),
    );
  }

  #resume(): void {
    const { relay, upstream } = this.#site;
    const queue = this.#queue ?? [];
    this.#queue = null;
    for (const chunk of queue) relay.data(chunk);
    if (this.#failure !== null) relay.error(this.#failure);
    else if (this.#ended) relay.end();
    else upstream.release();
  }
}
