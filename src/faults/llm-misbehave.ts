import { MisbehaveRelay } from "./misbehave/answer-relay.js";
import type { FaultExecutor, FaultOf } from "./types.js";

/**
 * `llm_misbehave`: the request is forwarded, and the upstream model's answer reaches the workload
 * rewritten as the configured kind says (docs/faults.md).
 */
export const llmMisbehave: FaultExecutor<FaultOf<"llm_misbehave">> = {
  parameters: () => ({}),
  execute(fault, context) {
    context.forward((ownRelay) => new MisbehaveRelay(fault, context, ownRelay));
  },
};
