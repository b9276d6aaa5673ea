import { endAtCut } from "./stream/end-at-cut.js";
import type { FaultOf } from "./types.js";

/** `http_stream_truncate`: the response up to the cut point, then a clean end, as if it were complete. */
export const streamTruncate = endAtCut<FaultOf<"http_stream_truncate">>(
  "injected_stream_truncated",
  (relay) => relay.finish(),
);
