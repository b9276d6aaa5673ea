/** Validated scenarios (plain data) for analyzer tests. */
import type { LegacyFault, LegacyScenario, LegacyTarget } from "../../src/scenario/legacy/types.js";

const DEFAULT_TARGET: LegacyTarget = { method: "GET", path: "/customer/*" };

function scenario(fault: LegacyFault | null, expectedExitCode = 0): LegacyScenario {
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

export function baselineScenario(expectedExitCode = 0): LegacyScenario {
  return scenario(null, expectedExitCode);
}

export function scheduleScenario(
  occurrences: readonly number[],
  options: { target?: LegacyTarget; expectedExitCode?: number } = {},
): LegacyScenario {
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
  target?: LegacyTarget;
}): LegacyScenario {
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
