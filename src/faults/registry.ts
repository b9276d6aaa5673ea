import { compileTarget } from "../scenario/target.js";
import type { Fault, FaultType } from "../scenario/types.js";
import { createTriggerState } from "../triggers/index.js";
import { disconnect } from "./disconnect.js";
import { httpError } from "./http-error.js";
import { latency } from "./latency.js";
import { malformedJson } from "./malformed-json.js";
import { rateLimit } from "./rate-limit.js";
import type { FaultContext, FaultExecutor } from "./types.js";

/** Every fault type's executor; the compiler rejects a missing or mistyped entry. */
export const FAULT_EXECUTORS = {
  http_latency: latency,
  http_error: httpError,
  http_rate_limit: rateLimit,
  http_malformed_json: malformedJson,
  http_disconnect: disconnect,
} satisfies { [K in FaultType]: FaultExecutor<Extract<Fault, { type: K }>> };

/** One configured fault ready for traffic: its target, its own trigger state, its executor. */
export interface ArmedFault {
  readonly type: FaultType;
  readonly parameters: Readonly<Record<string, number>>;
  matches(method: string, path: string): boolean;
  /** Counts one matching occurrence and says whether it is selected. */
  decide(): boolean;
  execute(context: FaultContext): void | Promise<void>;
}

/** Binds a fault to a fresh trigger state (its counter starts at 1 with the first match). */
export function armFault(fault: Fault): ArmedFault {
  const executor = FAULT_EXECUTORS[fault.type] as FaultExecutor<Fault>;
  const trigger = createTriggerState(fault.trigger);
  return {
    type: fault.type,
    parameters: executor.parameters(fault),
    matches: compileTarget(fault.target),
    decide: () => trigger.decide(),
    execute: (context) => executor.execute(fault, context),
  };
}
