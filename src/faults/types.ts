import type { FailureDetails } from "../events/operation.js";
import type { FailureKind, NotAppliedReason } from "../events/types.js";
import type { Fault } from "../scenario/types.js";
import type { CanaryType, CanaryValues } from "./corruption/canary.js";

/** A fixed response a fault answers with; never built from dependency traffic. */
export interface SyntheticResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Response headers as Node gives them (a repeated header is a list). */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * What the upstream side of a forward reports to whoever relays its response to the
 * workload. The proxy's own relays (buffered, and `text/event-stream` chunk by chunk)
 * implement it; a future response-stream fault supplies its own (or wraps the default one)
 * through `FaultContext.forward`.
 */
export interface ResponseRelay {
  /** Status line and headers arrived (lower-case names). `control` applies backpressure or cancels. */
  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void;
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
 * The proxy's streaming relay: status and headers at once, then each chunk as it arrives, with
 * chunked transfer encoding (never a `Content-Length`), counting the events of a
 * `text/event-stream`. It records the operation's terminal event when the upstream response
 * ends or breaks, or when the workload closes it. A response-stream fault drives one through
 * `FaultContext.streamingRelay` and may stop it at any point with `finish` or `destroy`.
 */
export interface StreamingRelay extends ResponseRelay {
  /** Complete events relayed so far (one whose last CR is the last byte relayed counts); null when not an event stream. */
  relayedEvents(): number | null;
  /** From now on a fault acts on this response: a workload that closes it fails with `client_disconnected`. */
  takeOver(): void;
  /** Ends the workload's response cleanly, after `tail` when given; records nothing. */
  finish(tail?: string): void;
  /** Closes the workload's connection once what was relayed is flushed, without ending the response; records nothing. */
  destroy(): void;
  /** Calls `listener` once, when the workload's response is closed (ended, cut or abandoned). */
  onClose(listener: () => void): void;
}

/**
 * What a fault executor may do with the one selected operation. `respond` and `disconnect`
 * record the operation's terminal evidence themselves, exactly once; a fault that takes over
 * the response relay records it through `fail` or its relay.
 */
export interface FaultContext {
  /** Records the failure (`failureKind`, the response status) and answers with `response`; the upstream is never contacted. */
  respond(response: SyntheticResponse, failureKind: FailureKind, details?: FailureDetails): void;
  /** Records the failure (status `null`), then ends the workload's connection without a single byte. */
  disconnect(failureKind: FailureKind, details?: FailureDetails): void;
  /** Records the operation's terminal failure now, without touching the workload's side; false when it already had one. */
  fail(failureKind: FailureKind, statusCode: number | null, details?: FailureDetails): boolean;
  /**
   * Schema 2: records that this fault, although selected, could not act (docs/faults.md); call it
   * before the operation's terminal event is recorded.
   */
  notApplied(reason: NotAppliedReason): void;
  /**
   * Runs `note` once, right before the operation's terminal event is recorded (whoever records
   * it), so that evidence depending on how the operation ended precedes it — e.g. a
   * `notApplied` that is known only when the upstream response ends, breaks or is abandoned.
   */
  beforeTerminal(note: () => void): void;
  /**
   * Holds the operation for `ms`. Resolves `true` when the wait elapsed; `false` when the
   * operation was abandoned meanwhile (`client_disconnected`, `client_timeout_inferred`,
   * or the proxy closing), its failure already recorded.
   */
  hold(ms: number): Promise<boolean>;
  /** Forwards the request upstream as usual; `relay` (default: the proxy's own) receives the response. */
  forward(relay?: (defaultRelay: ResponseRelay) => ResponseRelay): void;
  /** A fresh streaming relay to the workload for this operation (see `StreamingRelay`). */
  streamingRelay(): StreamingRelay;
  /** Corruption faults only: this fault's canary (null for every other fault). */
  readonly canary: FaultCanary | null;
}

/**
 * A corruption fault's canary, bound to the fault and its operation: the values to write, and
 * how the fault records what it did (docs/faults.md, corruption faults).
 */
export interface FaultCanary {
  readonly values: CanaryValues;
  /**
   * A value was replaced: FAULT_INJECTED with the canary's type, and its sinks are watched.
   * `pointer`: the replaced value's, when the fault named none (the first leaf value).
   */
  replaced(type: CanaryType, pointer?: string | null): void;
  /** Nothing was replaced: FAULT_INJECTED without a type, then FAULT_NOT_APPLIED with `reason`. */
  notReplaced(reason: NotAppliedReason): void;
}

/** The keys every fault shares; an executor sees only the type's own keys. */
type SharedFaultKeys = "id" | "dependency" | "target" | "trigger" | "expect";

/** A fault of type `K` as its executor sees it (schema-1 and schema-2 faults alike). */
export type FaultOf<K extends Fault["type"]> = Omit<Extract<Fault, { type: K }>, SharedFaultKeys>;

/** One fault type's behaviour, mapped by `registry.ts`. */
export interface FaultExecutor<F extends { readonly type: string }> {
  /** `FAULT_INJECTED.parameters` (integers only). */
  parameters(fault: F): Record<string, number>;
  /**
   * Acts on a selected operation. May be async; it must not throw for traffic reasons.
   * `injection`: this injection's `FAULT_INJECTED.parameters` (they may differ per injection).
   */
  execute(
    fault: F,
    context: FaultContext,
    injection?: Readonly<Record<string, number>>,
  ): void | Promise<void>;
}
