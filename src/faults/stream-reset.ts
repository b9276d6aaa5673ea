import { relayWithCut } from "./stream/cut-relay.js";
import { cutParameters } from "./stream/parameters.js";
import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_stream_reset`: the response up to the cut point, then the connection closed without ending the response. */
export const streamReset: FaultExecutor<FaultOf<"http_stream_reset">> = {
  parameters: cutParameters,
  execute(fault, context) {
    context.forward(
      relayWithCut(fault, context, ({ status, relay, upstream }) => {
        context.fail("injected_stream_reset", status, { relayedEvents: relay.relayedEvents() });
        upstream.abort();
        relay.destroy();
        return null;
      }),
    );
  },
};
