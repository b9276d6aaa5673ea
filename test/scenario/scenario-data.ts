import { stringify } from "yaml";
import { parseScenario } from "../../src/scenario/load.js";
import type { Scenario } from "../../src/scenario/types.js";
import { problems } from "./scenario-text.js";

export const SOURCE_PATH = "/scenarios/v2/scenario.yaml";

/** A valid two-dependency schema-2 scenario as plain data, to be edited by each test. */
export function baseScenario(): Record<string, unknown> {
  return {
    schema_version: 2,
    name: "two-dependencies",
    dependencies: {
      llm: {
        type: "http",
        base_url: "http://127.0.0.1:{port}/v1",
        start: {
          command: ["node", "fake-llm.mjs", "--port", "{port}"],
          env: { LISTEN: "127.0.0.1:{port}" },
          readiness: { path: "/health" },
        },
        url_env: "OPENAI_BASE_URL",
      },
      crm: { type: "http", base_url: "http://127.0.0.1:8080" },
    },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workload env value that interpolates a run variable
    workload: { command: ["node", "agent.mjs"], env: { MODEL_URL: "${AGENTCHAOS_LLM_URL}/v1" } },
    faults: [
      {
        dependency: "crm",
        type: "http_error",
        target: { path: "/tickets/*" },
        trigger: { occurrences: [1, 2] },
        status_code: 503,
      },
    ],
    success: { exit_code: 0 },
  };
}

export function textOf(data: unknown): string {
  return stringify(data);
}

export function parseScenarioData(data: unknown): Scenario {
  const scenario = parseScenario(new TextEncoder().encode(textOf(data)), SOURCE_PATH);
  if (scenario.schemaVersion !== 2) throw new Error("expected a schema-2 scenario");
  return scenario;
}

/** The key paths of the problems of a schema-2 scenario, in file order. */
export function problemPaths(data: unknown): string[] {
  return problems(textOf(data)).map((problem) => problem.path);
}

export function problemMessages(data: unknown): string[] {
  return problems(textOf(data)).map((problem) => `${problem.path}: ${problem.message}`);
}

/** A deep copy of the base with `edit` applied (plain YAML data, edited freely by tests). */
// biome-ignore lint/suspicious/noExplicitAny: test data is edited as free-form YAML
type Editable = Record<string, any>;
export function edited(edit: (data: Editable) => void): Record<string, unknown> {
  const data = structuredClone(baseScenario()) as Editable;
  edit(data);
  return data;
}
