/**
 * Which fault types this build can run: asked of `unsupportedFeature`, the same rule `run`
 * applies, with a one-fault probe scenario. So the stream, LLM and MCP menu entries appear by
 * themselves once the build can run them.
 */
import { unsupportedFeature } from "../runtime/support.js";
import { DEFAULT_CHECKS } from "../scenario/checks.js";
import type { Dependency, Fault, Scenario } from "../scenario/types.js";

/** A stand-in dependency named `name` of the kind the fault acts on: an MCP stdio server or an http one. */
export function placeholderDependency(name: string, mcp: boolean): Dependency {
  if (mcp) return { name, type: "mcp_stdio", command: [name], cwd: "/", env: {} };
  return {
    name,
    type: "http",
    baseUrl: "http://127.0.0.1:1",
    start: null,
    urlEnv: null,
    protocol: "http",
    ignoreJsonFields: [],
    usesPortPlaceholder: false,
  };
}

/** Null when this build can run the fault's type, else why not (one line). */
export function unavailableFault(fault: Fault): string | null {
  const dependency = placeholderDependency("probe", fault.type.startsWith("mcp_"));
  const probe: Scenario = {
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
