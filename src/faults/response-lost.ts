import { BODY_LIMIT } from "../support/body-limit.js";
import type { FaultContext, FaultExecutor, FaultOf, ResponseRelay, UpstreamControl } from "./types.js";

/**
 * `http_response_lost`: the request is forwarded, the upstream's answer read to its end (at
 * most 10 MiB of it) and discarded, then the workload's connection is closed without a byte.
 * An upstream transport failure is answered as usual, the fault not applied.
 */
export const responseLost: FaultExecutor<FaultOf<"http_response_lost">> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.forward((ownRelay) => new DiscardingRelay(context, ownRelay));
  },
};

class DiscardingRelay implements ResponseRelay {
  readonly #context: FaultContext;
  readonly #ownRelay: ResponseRelay;
  #status: number | null = null;
  #control: UpstreamControl | null = null;
  #size = 0;
  #done = false;

  constructor(context: FaultContext, ownRelay: ResponseRelay) {
    this.#context = context;
    this.#ownRelay = ownRelay;
  }

  start(status: number, _headers: unknown, control: UpstreamControl): void {
    this.#status = status;
    this.#control = control;
  }

  data(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#done || this.#size <= BODY_LIMIT) return;
    // Reading stops at the limit: the upstream has answered, the rest changes nothing.
    this.#control?.abort();
    this.#lose();
  }

  end(): void {
    if (!this.#done) this.#lose();
  }

  error(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#context.notApplied("upstream_failed");
    this.#ownRelay.error(error);
  }

  #lose(): void {
    this.#done = true;
    this.#context.disconnect("injected_response_lost", { upstreamStatus: this.#status });
  }
}
