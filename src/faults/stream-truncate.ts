import { relayWithCut } from "./stream/cut-relay.js";
import { cutParameters } from "./stream/parameters.js";
import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_stream_truncate`: the response up to the cut point, then a clean end, as if it were complete. */
export const streamTruncate: FaultExecutor<FaultOf<"http_stream_truncate">> = {
  parameters: cutParameters,
  execute(fault, context) {
    context.forward(
      relayWithCut(fault, context, ({ status, relay, upstream }) => {
        context.fail("injected_stream_truncated", status, { relayedEvents: relay.relayedEvents() });
        upstream.abort();
        relay.finish();
        return null;
      }),
    );
  },
};
