import type { FailureKind } from "../../events/types.js";
import type { FaultExecutor, StreamingRelay } from "../types.js";
import type { CutSpec } from "./cut-point.js";
import { relayWithCut } from "./cut-relay.js";
import { cutParameters } from "./parameters.js";

/**
 * The executor of a mid-stream fault that ends the response at the cut point (docs/faults.md):
 * the operation fails `failureKind` with the events relayed so far, the upstream is stopped,
 * then `end` ends the workload's response its own way.
 */
export function endAtCut<F extends CutSpec & { readonly type: string }>(
  failureKind: FailureKind,
  end: (relay: StreamingRelay, fault: F) => void,
): FaultExecutor<F> {
  return {
    parameters: cutParameters,
    execute(fault, context) {
      context.forward(
        relayWithCut(fault, context, ({ status, relay, upstream }) => {
          context.fail(failureKind, status, { relayedEvents: relay.relayedEvents() });
          upstream.abort();
          end(relay, fault);
          return null;
        }),
      );
    },
  };
}
