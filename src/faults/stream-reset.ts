import { endAtCut } from "./stream/end-at-cut.js";
import type { FaultOf } from "./types.js";

/** `http_stream_reset`: the response up to the cut point, then the connection closed without ending the response. */
export const streamReset = endAtCut<FaultOf<"http_stream_reset">>("injected_stream_reset", (relay) =>
  relay.destroy(),
);
