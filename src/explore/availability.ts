/**
 * Which fault types this build can run: asked of `unsupportedFeature`, the same rule `run`
 * applies, with a one-fault probe scenario. So the stream, LLM and MCP menu entries appear by
 * themselves once the build can run them.
 */
import { unsupportedFeature } from "../runtime/support.js";
import type { DependencyV2, FaultV2, ScenarioV2 } from "../scenario/types-v2.js";
import { DEFAULT_CHECKS } from "../scenario/v2/checks.js";

const PROBE_HTTP: DependencyV2 = {
  name: "probe",
  type: "http",
  baseUrl: "http://127.0.0.1:1",
  start: null,
  urlEnv: null,
  protocol: "http",
  ignoreJsonFields: [],
  usesPortPlaceholder: false,
};
const PROBE_MCP: DependencyV2 = { name: "probe", type: "mcp_stdio", command: ["probe"], cwd: "/", env: {} };

/** Null when this build can run the fault's type, else why not (one line). */
export function unavailableFault(fault: FaultV2): string | null {
  const dependency = fault.type.startsWith("mcp_") ? PROBE_MCP : PROBE_HTTP;
  const probe: ScenarioV2 = {
    schemaVersion: 2,
    name: "probe",
    dependencies: [dependency],
    workload: { name: null, command: ["probe"], cwd: "/", env: {} },
    faults: [{ ...fault, id: "probe", dependency: "probe" }],
    recovery: "chain",
    checks: DEFAULT_CHECKS,
    success: { exitCode: 0 },
    timeoutSeconds: 1,
    sourcePath: "/probe.yaml",
  };
  return unsupportedFeature(probe) === null ? null : `${fault.type} is not available in this build`;
}
