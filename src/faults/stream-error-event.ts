import type { StreamErrorEventFault } from "../scenario/types.js";
import { relayWithCut } from "./stream/cut-relay.js";
import { cutParameters } from "./stream/parameters.js";
import type { FaultExecutor, FaultOf } from "./types.js";

/** The provider-shaped error event, byte for byte (docs/faults.md). */
export const ERROR_EVENT_FRAMES: Readonly<Record<StreamErrorEventFault["format"], string>> = {
  anthropic:
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
  openai:
    'data: {"error":{"message":"Injected by Agent Chaos","type":"server_error","param":null,"code":null}}\n\n',
};

/** `http_stream_error_event`: the response up to the cut point, then one error event, then a clean end. */
export const streamErrorEvent: FaultExecutor<FaultOf<"http_stream_error_event">> = {
  parameters: cutParameters,
  execute(fault, context) {
    context.forward(
      relayWithCut(fault, context, ({ status, relay, upstream }) => {
        context.fail("injected_stream_error_event", status, { relayedEvents: relay.relayedEvents() });
        upstream.abort();
        relay.finish(ERROR_EVENT_FRAMES[fault.format]);
        return null;
      }),
    );
  },
};
