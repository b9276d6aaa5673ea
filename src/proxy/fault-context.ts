import type { ArmedFault } from "../faults/registry.js";
import type { FaultCanary, FaultContext, ResponseRelay, SyntheticResponse } from "../faults/types.js";
import { cutConnection, type Exchange, failInternally } from "./exchange.js";
import type { HeldOperations } from "./holds.js";
import type { Forwarder } from "./pipeline.js";
import { sendSynthetic } from "./responses.js";
import { retryAfterMs } from "./retry-after.js";
import { StreamRelay } from "./stream-relay.js";

/** Runs an HTTP fault's executor on the exchange; whatever fails inside it fails the exchange (`proxy_error`). */
export function executeFault(
  exchange: Exchange,
  fault: ArmedFault,
  holds: HeldOperations,
  forward: Forwarder,
  canary: FaultCanary | null,
): void {
  const pending = fault.execute(createFaultContext(exchange, holds, forward, fault.id, canary));
  if (pending instanceof Promise) pending.catch(() => failInternally(exchange));
}

/** The context a fault executor acts through, for one selected operation. */
export function createFaultContext(
  exchange: Exchange,
  holds: HeldOperations,
  forward: Forwarder,
  faultId: string,
  canary: FaultCanary | null = null,
): FaultContext {
  return {
    canary,
    respond(response: SyntheticResponse, failureKind, details) {
      const { operation } = exchange;
      const asked = retryAfterMs(response.headers, Date.now());
      operation.fail(failureKind, response.status, { retryAfterMs: asked, ...details });
      sendSynthetic(exchange.response, response);
    },
    disconnect(failureKind, details) {
      exchange.operation.fail(failureKind, null, details);
      cutConnection(exchange);
    },
    fail(failureKind, statusCode, details) {
      return exchange.operation.fail(failureKind, statusCode, details);
    },
    notApplied(reason) {
      exchange.operation.notApplied(faultId, reason);
    },
    beforeTerminal(note) {
      exchange.operation.beforeTerminal(note);
    },
    hold: (ms: number) => holds.hold(exchange, ms),
    forward(relay?: (defaultRelay: ResponseRelay) => ResponseRelay) {
      forward(exchange, relay);
    },
    streamingRelay: () => new StreamRelay(exchange),
  };
}
