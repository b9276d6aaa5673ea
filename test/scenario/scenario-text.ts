import { expect } from "vitest";
import { ScenarioError, type ScenarioErrorCode, type ScenarioProblem } from "../../src/scenario/errors.js";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import { parseScenario } from "../../src/scenario/load.js";
import { schema1Source } from "../helpers/schema-1-source.js";

/** Where inline scenarios pretend to live (relative `cwd` values resolve against `/scenarios`). */
export const SOURCE_PATH = "/scenarios/scenario.yaml";

export interface ScenarioParts {
  /** Lines under `dependency:` (indented two spaces). */
  readonly dependency?: string;
  /** Lines under `workload:`. */
  readonly workload?: string;
  /** The whole `fault:` block, or nothing. */
  readonly fault?: string;
  /** Lines under `success:`. */
  readonly success?: string;
  /** Extra top-level lines at the end (`timeout_seconds: 10`). */
  readonly extra?: string;
  /** Replaces the `schema_version` line. */
  readonly schemaVersion?: string;
}

/** A valid scenario text, with parts swapped out; every swapped part is written as given. */
export function scenarioText(parts: ScenarioParts = {}): string {
  return [
    parts.schemaVersion ?? "schema_version: 1",
    "name: test-scenario",
    "dependency:",
    parts.dependency ?? "  type: http\n  base_url: http://127.0.0.1:19103",
    "workload:",
    parts.workload ?? "  command: [node, agent.mjs]",
    ...(parts.fault === undefined ? [] : [parts.fault]),
    "success:",
    parts.success ?? "  exit_code: 0",
    ...(parts.extra === undefined ? [] : [parts.extra]),
    "",
  ].join("\n");
}

/** A `fault:` block: `type`, a target on GET /customer/*, the trigger lines and the fault's own lines. */
export function faultText(
  type: string,
  options: { trigger?: string; own?: string; target?: string } = {},
): string {
  return [
    "fault:",
    `  type: ${type}`,
    "  target:",
    options.target ?? "    method: GET\n    path: /customer/*",
    "  trigger:",
    options.trigger ?? "    occurrence: 2",
    ...(options.own === undefined ? [] : [options.own]),
  ].join("\n");
}

export function parse(text: string | Uint8Array): LegacyScenario {
  return schema1Source(
    parseScenario(typeof text === "string" ? new TextEncoder().encode(text) : text, SOURCE_PATH),
  );
}

/** The error `parse` throws; fails the test when it does not throw a `ScenarioError`. */
export function scenarioError(text: string | Uint8Array): ScenarioError {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error("expected the scenario to be rejected, but it was accepted");
}

/** The problems of an invalid scenario (the error code must be SCENARIO_INVALID). */
export function problems(text: string): readonly ScenarioProblem[] {
  const error = scenarioError(text);
  expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_INVALID");
  return error.problems;
}

/** The key paths of the problems, in order. */
export function problemPaths(text: string): string[] {
  return problems(text).map((problem) => problem.path);
}
