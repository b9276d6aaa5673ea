// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about ${...} references
import { describe, expect, it } from "vitest";
import { dependencyUrlVariable, interpolate, runVariables } from "../../src/runtime/workload-env.js";
import { baseScenario, parseScenarioData } from "../scenario/scenario-data.js";

describe("schema-2 workload variables", () => {
  it("gives every http dependency AGENTCHAOS_<NAME>_URL and its url_env, and the run id", () => {
    const scenario = parseScenarioData(baseScenario());
    const urls = new Map([
      ["llm", "http://127.0.0.1:1001"],
      ["crm", "http://127.0.0.1:1002"],
    ]);
    expect(runVariables(scenario, "run-1", urls)).toEqual({
      AGENTCHAOS_RUN_ID: "run-1",
      AGENTCHAOS_LLM_URL: "http://127.0.0.1:1001",
      OPENAI_BASE_URL: "http://127.0.0.1:1001",
      AGENTCHAOS_CRM_URL: "http://127.0.0.1:1002",
    });
  });

  it("sets AGENTCHAOS_PROXY_URL only when there is exactly one http dependency", () => {
    const data = baseScenario() as { dependencies: Record<string, unknown>; faults: unknown };
    delete data.dependencies.llm;
    const scenario = parseScenarioData(data);
    const variables = runVariables(scenario, "r", new Map([["crm", "http://127.0.0.1:7"]]));
    expect(variables.AGENTCHAOS_PROXY_URL).toBe("http://127.0.0.1:7");
    expect(variables.AGENTCHAOS_CRM_URL).toBe("http://127.0.0.1:7");
  });

  it("upper-cases the dependency name in its URL variable", () => {
    expect(dependencyUrlVariable("tool_api")).toBe("AGENTCHAOS_TOOL_API_URL");
  });
});

describe("${...} in workload env values", () => {
  const variables = { AGENTCHAOS_LLM_URL: "http://127.0.0.1:5", AGENTCHAOS_RUN_ID: "abc" };

  it("replaces a known run variable, also inside a longer value", () => {
    expect(interpolate("${AGENTCHAOS_LLM_URL}/v1", variables)).toBe("http://127.0.0.1:5/v1");
    expect(interpolate("id=${AGENTCHAOS_RUN_ID};x", variables)).toBe("id=abc;x");
  });

  it("leaves unknown names and malformed references as written", () => {
    expect(interpolate("${HOME}/x", variables)).toBe("${HOME}/x");
    expect(interpolate("${}", variables)).toBe("${}");
    expect(interpolate("$AGENTCHAOS_RUN_ID", variables)).toBe("$AGENTCHAOS_RUN_ID");
    expect(interpolate("${AGENTCHAOS_RUN_ID", variables)).toBe("${AGENTCHAOS_RUN_ID");
  });

  it("reads $$ as a literal $ and never expands a substituted value again", () => {
    expect(interpolate("$$", variables)).toBe("$");
    expect(interpolate("$${AGENTCHAOS_RUN_ID}", variables)).toBe("${AGENTCHAOS_RUN_ID}");
    expect(interpolate("${X}", { X: "${AGENTCHAOS_RUN_ID}", AGENTCHAOS_RUN_ID: "no" })).toBe(
      "${AGENTCHAOS_RUN_ID}",
    );
  });
});
