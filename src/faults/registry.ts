import { compileTarget } from "../scenario/target.js";
import type { Fault, HttpFaultType } from "../scenario/types.js";
import { clockStartedNow, createTriggerState, type TriggerClock } from "../triggers/index.js";
import { authExpired } from "./auth-expired.js";
import { disconnect, httpError, malformedJson, rateLimit } from "./fixed-answers.js";
import { httpCorrupt } from "./http-corrupt.js";
import { jitterDraws } from "./jitter.js";
import { latency } from "./latency.js";
import { llmError } from "./llm-error.js";
import { llmMisbehave } from "./llm-misbehave.js";
import { responseLost } from "./response-lost.js";
import type { SelectableFault } from "./selection.js";
import { streamErrorEvent, streamReset, streamTruncate } from "./stream-cuts.js";
import { streamStall } from "./stream-stall.js";
import type { FaultContext, FaultExecutor, FaultOf } from "./types.js";

/** Every HTTP fault type's executor; the compiler rejects a missing or mistyped entry. */
export const FAULT_EXECUTORS = {
  http_latency: latency,
  http_error: httpError,
  http_rate_limit: rateLimit,
  http_malformed_json: malformedJson,
  http_disconnect: disconnect,
  http_llm_error: llmError,
  http_stream_truncate: streamTruncate,
  http_stream_reset: streamReset,
  http_stream_stall: streamStall,
  http_stream_error_event: streamErrorEvent,
  http_response_lost: responseLost,
  llm_misbehave: llmMisbehave,
  http_auth_expired: authExpired,
  http_corrupt: httpCorrupt,
} satisfies { [K in HttpFaultType]: FaultExecutor<FaultOf<K>> };

export type HttpExecutableFaultType = keyof typeof FAULT_EXECUTORS;

/** One configured fault ready for traffic: its target, its own trigger state, its executor. */
export interface ArmedFault extends SelectableFault {
  execute(context: FaultContext): void | Promise<void>;
}

/** A fault the HTTP proxy can execute (a schema-1 fault is upgraded on load, like any other). */
export type ArmableHttpFault = Extract<Fault, { type: HttpExecutableFaultType }>;
type HttpFault = ArmableHttpFault;

/** Binds a fault to a fresh trigger state (its counter starts at 1 with the first match). */
export function armFault(fault: HttpFault, clock: TriggerClock = clockStartedNow()): ArmedFault {
  const executor = FAULT_EXECUTORS[fault.type] as FaultExecutor<HttpFault>;
  const trigger = createTriggerState(fault.trigger, clock);
  const matches = compileTarget(fault.target);
  const id = fault.id;
  // A jittered latency draws its delay when it is selected: each injection has its own parameters.
  const draw =
    fault.type === "http_latency" && fault.jitterMs !== null
      ? jitterDraws(fault.jitterSeed ?? 0, id, fault.latencyMs, fault.jitterMs)
      : (autoRetryAfter(fault, trigger.secondsUntilRoom) ?? null);
  let parameters: Readonly<Record<string, number>> = executor.parameters(fault);
  return {
    id,
    type: fault.type,
    get parameters() {
      return parameters;
    },
    matches,
    countTokens: trigger.countTokens,
    decide: () => {
      const selected = trigger.decide();
      if (selected && draw !== null) parameters = draw();
      return selected;
    },
    execute: (context) => executor.execute(fault, context, parameters),
    ...(fault.type === "http_corrupt"
      ? { deferredInjection: { pointer: fault.pointer, canaryType: null } }
      : {}),
  };
}

/** `retry_after_seconds: auto` under a quota: each selection sends the seconds until the window has room. */
function autoRetryAfter(
  fault: HttpFault,
  secondsUntilRoom: (() => number) | null,
): (() => Readonly<Record<string, number>>) | undefined {
  if (fault.type !== "http_rate_limit" || fault.retryAfterSeconds !== "auto" || secondsUntilRoom === null)
    return undefined;
  return () => ({ retry_after_seconds: secondsUntilRoom() });
}

/** Whether the HTTP proxy has an executor for this schema-2 fault. */
export function isArmable(fault: Fault): fault is Extract<Fault, { type: HttpExecutableFaultType }> {
  return Object.hasOwn(FAULT_EXECUTORS, fault.type);
}
