import type { FailureKind } from "../events/types.js";
import type { Fault } from "../scenario/types.js";

/** A fixed response a fault answers with; never built from dependency traffic. */
export interface SyntheticResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What the upstream side of a forward reports to whoever relays its response to the
 * workload. The proxy's own relays (buffered, and `text/event-stream` chunk by chunk)
 * implement it; a future response-stream fault supplies its own (or wraps the default one)
 * through `FaultContext.forward`.
 */
export interface ResponseRelay {
  /** Status line and headers arrived (lower-case names). `control` applies backpressure or cancels. */
  start(
    status: number,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    control: UpstreamControl,
  ): void;
  data(chunk: Buffer): void;
  end(): void;
  /** Transport failure, before or after `start`. */
  error(error: Error): void;
}

export interface UpstreamControl {
  pause(): void;
  resume(): void;
  /** Cancels the upstream exchange; no further relay calls matter after it. */
  abort(): void;
}

/**
 * What a fault executor may do with the one selected operation. Every method records the
 * operation's terminal evidence itself, exactly once.
 */
export interface FaultContext {
  /** Records the failure (`failureKind`, the response status) and answers with `response`; the upstream is never contacted. */
  respond(response: SyntheticResponse, failureKind: FailureKind): void;
  /** Records the failure (status `null`), then ends the workload's connection without a single byte. */
  disconnect(failureKind: FailureKind): void;
  /**
   * Holds the operation for `ms`. Resolves `true` when the wait elapsed; `false` when the
   * operation was abandoned meanwhile (`client_disconnected`, `client_timeout_inferred`,
   * or the proxy closing), its failure already recorded.
   */
  hold(ms: number): Promise<boolean>;
  /** Forwards the request upstream as usual; `relay` (default: the proxy's own) receives the response. */
  forward(relay?: (defaultRelay: ResponseRelay) => ResponseRelay): void;
}

/** One fault type's behaviour; one file per fault, mapped by `registry.ts`. */
export interface FaultExecutor<F extends Fault = Fault> {
  /** `FAULT_INJECTED.parameters` (integers only). */
  parameters(fault: F): Record<string, number>;
  /** Acts on a selected operation. May be async; it must not throw for traffic reasons. */
  execute(fault: F, context: FaultContext): void | Promise<void>;
}
