import type { MisbehaveKind, MisbehaveProvider } from "../../../src/scenario/model-faults.js";
import type { Fault } from "../../../src/scenario/types.js";
import { closeFakeLlmsAfterEach, startFakeLlm, WEATHER_SCRIPT } from "../../fake-llm/helpers.js";
import { MemorySink, startFaultProxy } from "../../helpers/fault-proxy.js";

closeFakeLlmsAfterEach();

export const WEATHER = "What is the weather in Paris?";
export const GREETING = "Say hello";
/** The fake model's tool call arguments for WEATHER, cut in the middle of its last string. */
export const CUT_ARGUMENTS = '{"city":"Par';

export function misbehave(provider: MisbehaveProvider, kind: MisbehaveKind): Fault {
  return {
    id: "f1",
    type: "llm_misbehave",
    dependency: "llm",
    target: { kind: "http", method: "POST", path: "/v1/*" },
    trigger: { kind: "occurrence_schedule", occurrences: [1] },
    expect: "recover",
    provider,
    kind,
  };
}

/** The fake model (weather script) behind a schema-2 proxy with `fault`: the proxy's URL and its events. */
export async function behindProxy(fault: Fault): Promise<{ url: string; sink: MemorySink }> {
  const llm = await startFakeLlm({ script: WEATHER_SCRIPT });
  const sink = new MemorySink();
  const proxy = await startFaultProxy(llm.url, [fault], sink);
  return { url: proxy.url, sink };
}

/** The evidence of one faulted call: how it ended and why the fault did not act. */
export function evidence(sink: MemorySink) {
  const failed = sink.ofKind("OPERATION_FAILED")[0];
  return {
    failure: failed === undefined ? null : [failed.failure_kind, failed.status_code, failed.upstream_status],
    notApplied: sink.ofKind("FAULT_NOT_APPLIED").map((event) => event.reason),
    succeeded: sink.ofKind("OPERATION_SUCCEEDED").length,
  };
}

export const APPLIED = { failure: ["injected_misbehaviour", 200, 200], notApplied: [], succeeded: 0 };
export const NOT_APPLICABLE = { failure: null, notApplied: ["not_applicable"], succeeded: 1 };
