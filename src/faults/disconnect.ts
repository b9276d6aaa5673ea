import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_disconnect`: end the workload's connection without a byte; nothing goes upstream. */
export const disconnect: FaultExecutor<FaultOf<"http_disconnect">> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.disconnect("injected_disconnect");
  },
};
