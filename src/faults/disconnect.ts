import type { DisconnectFault } from "../scenario/types.js";
import type { FaultExecutor } from "./types.js";

/** `http_disconnect`: end the workload's connection without a byte; nothing goes upstream. */
export const disconnect: FaultExecutor<DisconnectFault> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.disconnect("injected_disconnect");
  },
};
