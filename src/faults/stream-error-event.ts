import type { StreamErrorEventFault } from "../scenario/types.js";
import { endAtCut } from "./stream/end-at-cut.js";
import type { FaultOf } from "./types.js";

/** The provider-shaped error event, byte for byte (docs/faults.md). */
export const ERROR_EVENT_FRAMES: Readonly<Record<StreamErrorEventFault["format"], string>> = {
  anthropic:
    'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
  openai:
    'data: {"error":{"message":"Injected by Agent Chaos","type":"server_error","param":null,"code":null}}\n\n',
};

/** `http_stream_error_event`: the response up to the cut point, then one error event, then a clean end. */
export const streamErrorEvent = endAtCut<FaultOf<"http_stream_error_event">>(
  "injected_stream_error_event",
  (relay, fault) => relay.finish(ERROR_EVENT_FRAMES[fault.format]),
);
