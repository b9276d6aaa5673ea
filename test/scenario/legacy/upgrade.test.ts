import { describe, expect, it } from "vitest";
import { interpolateEnv } from "../../../src/runtime/workload-env.js";
import type { LegacyScenario } from "../../../src/scenario/legacy/types.js";
import { upgradeScenario } from "../../../src/scenario/legacy/upgrade.js";
import { parseScenario } from "../../../src/scenario/load.js";
import { schema1Source } from "../../helpers/schema-1-source.js";
import { SOURCE_PATH, scenarioText } from "../scenario-text.js";

/** A schema-2 reference to a run variable, which a schema-1 value keeps as written. */
const RUN_ID_REF = ["$", "{AGENTCHAOS_RUN_ID}"].join("");

function schema1(text: string): LegacyScenario {
  return schema1Source(parseScenario(Buffer.from(text), SOURCE_PATH));
}

describe("upgradeScenario", () => {
  it("gives the one dependency, its fault (expect recover), recovery fifo and no checks", () => {
    const scenario = schema1(
      scenarioText({
        dependency:
          '  type: http\n  base_url: http://127.0.0.1:19103/v1\n  start:\n    command: [node, server.mjs, "{port}"]\n    readiness:\n      path: /health',
        workload: "  command: [node, agent.mjs]\n  proxy_url_env: OPENAI_BASE_URL",
        fault: [
          "fault:",
          "  type: http_error",
          "  status_code: 503",
          "  target:",
          "    method: post",
          "    path: /v1/chat",
          "  trigger:",
          "    occurrence: 2",
        ].join("\n"),
      }),
    );
    const upgraded = upgradeScenario(scenario);
    expect(upgraded.schemaVersion).toBe(2);
    expect(upgraded.dependencies).toEqual([
      {
        name: "api",
        type: "http",
        baseUrl: "http://127.0.0.1:19103/v1",
        start: scenario.dependency.start,
        // `proxy_url_env` is one more variable holding the proxy URL.
        urlEnv: "OPENAI_BASE_URL",
        protocol: "http",
        ignoreJsonFields: [],
        usesPortPlaceholder: false,
        // A workload leaving an event stream fails in schema 1 (the proxy counts no events).
        countStreamEvents: false,
      },
    ]);
    expect(upgraded.faults).toEqual([
      {
        id: "fault",
        dependency: "api",
        type: "http_error",
        statusCode: 503,
        target: { kind: "http", method: "POST", path: "/v1/chat" },
        trigger: { kind: "occurrence_schedule", occurrences: [2] },
        expect: "recover",
      },
    ]);
    expect(scenario.dependency.start?.command).toEqual(["node", "server.mjs", "{port}"]);
    expect(upgraded.recovery).toBe("fifo");
    expect(Object.values(upgraded.checks).map((check) => check.mode)).toEqual([
      "off",
      "off",
      "off",
      "off",
      "off",
    ]);
    // Schema 1's workload variables, log files and messages: no name for its one dependency.
    expect(upgraded.dependencyNaming).toBe("unnamed");
    expect(upgraded.legacy).toEqual({ source: scenario });
  });

  it("keeps workload env values as written through schema-2 interpolation", () => {
    const scenario = schema1(
      scenarioText({
        workload: `  command: [node, agent.mjs]\n  env:\n    A: "${RUN_ID_REF}"\n    B: "cost $$5 and $x"`,
      }),
    );
    const upgraded = upgradeScenario(scenario);
    expect(upgraded.faults).toEqual([]);
    expect(interpolateEnv(upgraded.workload.env, { AGENTCHAOS_RUN_ID: "run-1" })).toEqual(
      scenario.workload.env,
    );
    expect(scenario.workload.env).toEqual({ A: RUN_ID_REF, B: "cost $$5 and $x" });
  });
});
