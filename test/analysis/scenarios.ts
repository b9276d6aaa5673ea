/** Validated scenarios (plain data) for analyzer tests. */
import type { Fault, Scenario, Target } from "../../src/scenario/types.js";

const DEFAULT_TARGET: Target = { method: "GET", path: "/customer/*" };

function scenario(fault: Fault | null, expectedExitCode = 0): Scenario {
  return {
    schemaVersion: 1,
    name: "test-scenario",
    dependency: { type: "http", baseUrl: "http://127.0.0.1:8001", start: null },
    workload: { command: ["node", "agent.js"], cwd: "/tmp", env: {}, name: "demo-agent", proxyUrlEnv: null },
    fault,
    success: { exitCode: expectedExitCode },
    timeoutSeconds: 60,
    sourcePath: "/tmp/scenario.yaml",
  };
}

export function baselineScenario(expectedExitCode = 0): Scenario {
  return scenario(null, expectedExitCode);
}

export function scheduleScenario(
  occurrences: readonly number[],
  options: { target?: Target; expectedExitCode?: number } = {},
): Scenario {
  return scenario(
    {
      type: "http_error",
      statusCode: 503,
      target: options.target ?? DEFAULT_TARGET,
      trigger: { kind: "occurrence_schedule", occurrences },
    },
    options.expectedExitCode,
  );
}

export function probabilityScenario(options: {
  probabilityMillionths: number;
  seed: bigint;
  start: number;
  end: number;
  target?: Target;
}): Scenario {
  return scenario({
    type: "http_error",
    statusCode: 503,
    target: options.target ?? DEFAULT_TARGET,
    trigger: {
      kind: "seeded_probability",
      probability: options.probabilityMillionths / 1_000_000,
      probabilityMillionths: options.probabilityMillionths,
      seed: options.seed,
      window: { startOccurrence: options.start, endOccurrence: options.end },
    },
  });
}
