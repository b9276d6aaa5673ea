import type { FailureKind } from "../events/types.js";
import type { FaultContext, ResponseRelay, SyntheticResponse } from "../faults/types.js";
import { cutConnection, type Exchange } from "./exchange.js";
import type { HeldOperations } from "./holds.js";
import type { Forwarder } from "./pipeline.js";
import { sendSynthetic } from "./responses.js";

/** The context a fault executor acts through, for one selected operation. */
export function createFaultContext(
  exchange: Exchange,
  holds: HeldOperations,
  forward: Forwarder,
): FaultContext {
  return {
    respond(response: SyntheticResponse, failureKind: FailureKind) {
      exchange.operation.fail(failureKind, response.status);
      sendSynthetic(exchange.response, response);
    },
    disconnect(failureKind: FailureKind) {
      exchange.operation.fail(failureKind, null);
      cutConnection(exchange);
    },
    hold: (ms: number) => holds.hold(exchange, ms),
    forward(relay?: (defaultRelay: ResponseRelay) => ResponseRelay) {
      forward(exchange, relay);
    },
  };
}
