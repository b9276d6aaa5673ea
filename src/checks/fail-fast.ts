import type { CheckDefinition } from "./types.js";

/**
 * `fail_fast`: after a fault-related failure the workload must act — observe its next request to
 * any dependency, or end — within `max_ms`, counted from the failure plus the wait its response
 * asked for. A workload silent for longer is hung, and so is one still silent after the failure
 * when it is stopped at its timeout: it was waiting on the fault (docs/checks.md).
 */
export const failFastCheck: CheckDefinition<"fail_fast"> = {
  reason: "AGENT_HUNG",
  describe: (finding, config, label) =>
    `after operation ${label(finding.operation_id)} failed, the workload did nothing for ${finding.waited_ms} ms, ${
      finding.waited_ms > config.maxMs ? `more than ${config.maxMs} ms` : "until it was stopped"
    }`,
  silence: (silence, config) =>
    silence.waitedMs > config.maxMs || silence.endedByTimeout
      ? { operation_id: silence.operationId, waited_ms: silence.waitedMs }
      : null,
};
