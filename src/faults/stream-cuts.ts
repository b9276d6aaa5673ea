import type { FailureKind } from "../events/types.js";
import type { StreamErrorEventFault } from "../scenario/types.js";
import { relayWithCut } from "./stream/cut-relay.js";
import { cutParameters } from "./stream/parameters.js";
import type { FaultExecutor, FaultOf, StreamingRelay } from "./types.js";

/** The provider-shaped error event, byte for byte (docs/faults.md). */
export const ERROR_EVENT_FRAMES: Readonly<Record<StreamErrorEventFault["format"], string>> = {
  anthropic:
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
  openai:
    'data: {"error":{"message":"Injected by Agent Chaos","type":"server_error","param":null,"code":null}}\n\n',
};

type CutEndingType = "http_stream_reset" | "http_stream_truncate" | "http_stream_error_event";

/**
 * A mid-stream fault that relays the response up to the cut point, records `failure`, stops
 * reading the upstream and ends the workload's response with `end`.
 */
function endAtCut<T extends CutEndingType>(
  failure: FailureKind,
  end: (relay: StreamingRelay, fault: FaultOf<T>) => void,
): FaultExecutor<FaultOf<T>> {
  return {
    parameters: cutParameters,
    execute(fault, context) {
      context.forward(
        relayWithCut(fault, context, ({ status, relay, upstream }) => {
          context.fail(failure, status, { relayedEvents: relay.relayedEvents() });
          upstream.abort();
          end(relay, fault);
          return null;
        }),
      );
    },
  };
}

/** `http_stream_reset`: the connection closed without ending the response. */
export const streamReset = endAtCut<"http_stream_reset">("injected_stream_reset", (relay) => relay.destroy());

/** `http_stream_truncate`: a clean end, as if the response were complete. */
export const streamTruncate = endAtCut<"http_stream_truncate">("injected_stream_truncated", (relay) =>
  relay.finish(),
);

/** `http_stream_error_event`: one error event, then a clean end. */
export const streamErrorEvent = endAtCut<"http_stream_error_event">(
  "injected_stream_error_event",
  (relay, fault) => relay.finish(ERROR_EVENT_FRAMES[fault.format]),
);
