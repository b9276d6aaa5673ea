import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baseScenario, CONVERTED_DEPENDENCY } from "../../src/explore/convert.js";
import { ExploreError } from "../../src/explore/errors.js";
import { scenarioText } from "../../src/explore/scenario-text.js";
import { loadScenario, parseScenario } from "../../src/scenario/load.js";
import type { Scenario } from "../../src/scenario/types.js";
import { ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const V2 = join(ROOT, "examples", "scenarios", "v2");

/** The text placed at `path` and parsed back from there. */
function reparse(scenario: Scenario, path: string): Scenario {
  const text = scenarioText(scenario, join(path, ".."), ["a comment"]);
  const parsed = parseScenario(new TextEncoder().encode(text), path);
  if (parsed.schemaVersion !== 2) throw new Error("expected schema 2");
  return parsed;
}

const RICH = `schema_version: 2
name: "rich: every key"
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}/v1
    start:
      command: [node, "fake llm.mjs", "--listen=127.0.0.1:{port}", "20"]
      cwd: ../tools
      env: {TOKEN: "s3cr$t", EMPTY: ""}
      readiness: {path: /health, timeout_seconds: 2.5}
    url_env: OPENAI_BASE_URL
    identity: {ignore_json_fields: [/metadata/attempt, /messages/0/id]}
  crm:
    type: http
    base_url: http://127.0.0.1:8080
workload:
  name: agent
  command: [node, agent.mjs, "yes", "#1"]
  env: {OPENAI_API_KEY: "\${AGENTCHAOS_LLM_URL}/x $$ y"}
faults:
  - id: llm-429
    dependency: llm
    type: http_rate_limit
    target: {method: post, path: /chat/*}
    trigger: {occurrences: [1, 3]}
    retry_after_seconds: 2
  - dependency: crm
    type: http_latency
    target: {path: /tickets/*}
    trigger: {probability: 0.25, seed: 18446744073709551615, window: {start_occurrence: 2, end_occurrence: 9}}
    latency_ms: 700
    expect: handle
  - dependency: crm
    type: http_error
    target: {path: /x}
    trigger: {occurrence: 4}
    status_code: 500
    expect: give_up
recovery: fifo
checks:
  retry_after: report
  retry_storm: {mode: enforce, max_attempts: 3, min_gap_ms: 0}
success:
  exit_code: 3
timeout_seconds: 12.5
`;

describe("scenario text", () => {
  it("parses back to the same scenario, whatever the file uses", async () => {
    const temp = await tempDir();
    try {
      const source = join(temp.path, "scenarios", "rich.yaml");
      await mkdir(join(temp.path, "scenarios"));
      await writeFile(source, RICH);
      const scenario = (await loadScenario(source)) as Scenario;
      expect(reparse(scenario, source)).toEqual(scenario);
      // From another folder: the cwds are rewritten relative to the new place, and resolve the same.
      const elsewhere = join(temp.path, "out", "replays", "01.yaml");
      expect({ ...reparse(scenario, elsewhere), sourcePath: source }).toEqual(scenario);
      expect(scenarioText(scenario, join(temp.path, "out", "replays"))).toContain("cwd: ../../tools\n");
    } finally {
      await temp.remove();
    }
  });

  it("writes the bundled schema-2 examples back faithfully", async () => {
    for (const name of ["support_fault_on_each_dependency", "support_tool_503_twice_fifo"]) {
      const path = join(V2, `${name}.yaml`);
      const scenario = (await loadScenario(path)) as Scenario;
      expect(reparse(scenario, path)).toEqual(scenario);
    }
  });

  it("starts with the comments, one '#' line each, control characters blanked", async () => {
    const scenario = (await loadScenario(join(V2, "support_baseline.yaml"))) as Scenario;
    const text = scenarioText(scenario, V2, ["first", "second\nline"]);
    expect(text.startsWith("# first\n# second line\nschema_version: 2\n")).toBe(true);
  });
});

describe("the base scenario of an explore", () => {
  it("is a schema-2 scenario without its faults", async () => {
    const scenario = (await loadScenario(join(V2, "support_fault_on_each_dependency.yaml"))) as Scenario;
    expect(baseScenario(scenario)).toEqual({ ...scenario, faults: [] });
  });

  it("of a schema-1 scenario names its dependency api, keeps proxy_url_env and env values as written", async () => {
    const temp = await tempDir();
    try {
      const path = join(temp.path, "one.yaml");
      await writeFile(
        path,
        'schema_version: 1\nname: one\ndependency:\n  type: http\n  base_url: http://127.0.0.1:19999/api\n  start:\n    command: [node, api.mjs]\n    readiness: {path: /health}\nworkload:\n  command: [node, agent.mjs]\n  env: {PRICE: "$5 \u0024{HOME} $$"}\n  proxy_url_env: API_URL\nfault:\n  type: http_error\n  target: {path: /x}\n  trigger: {occurrence: 1}\n  status_code: 503\nsuccess:\n  exit_code: 0\n',
      );
      const base = baseScenario(await loadScenario(path));
      expect(base.dependencies).toEqual([
        expect.objectContaining({
          name: CONVERTED_DEPENDENCY,
          baseUrl: "http://127.0.0.1:19999/api",
          urlEnv: "API_URL",
        }),
      ]);
      expect(base.faults).toEqual([]);
      expect(base.recovery).toBe("chain");
      // Schema 2 reads `$$` as `$` and `${NAME}` as a run variable: the converted text says the same as before.
      expect(base.workload.env.PRICE).toBe("$$5 $${HOME} $$$$");
      const back = reparse(base, path);
      expect(back).toEqual(base);
      expect(back.dependencies[0]).toMatchObject({ start: { readiness: { timeoutSeconds: 5 } } });
    } finally {
      await temp.remove();
    }
  });

  it("of a schema-1 scenario whose proxy_url_env schema 2 reserves is refused with a reason", async () => {
    const temp = await tempDir();
    try {
      const path = join(temp.path, "one.yaml");
      await writeFile(
        path,
        "schema_version: 1\nname: one\ndependency:\n  type: http\n  base_url: http://127.0.0.1:19999\nworkload:\n  command: [node, agent.mjs]\n  proxy_url_env: AGENTCHAOS_API\nsuccess:\n  exit_code: 0\n",
      );
      const scenario = await loadScenario(path);
      expect(() => baseScenario(scenario)).toThrow(ExploreError);
      expect(() => baseScenario(scenario)).toThrow(/AGENTCHAOS_API starts with AGENTCHAOS_/);
    } finally {
      await temp.remove();
    }
  });
});

describe("scenario text of the truth keys", () => {
  it("writes verify and a corruption fault's sinks so that they read back the same", async () => {
    for (const file of ["ticket_lost_write_claimed_success", "shop_corrupt_price_propagated"]) {
      const path = join(ROOT, "examples", "truth", "scenarios", `${file}.yaml`);
      const scenario = await loadScenario(path);
      if (scenario.schemaVersion !== 2) throw new Error("expected schema 2");
      const back = reparse(scenario, path);
      expect(back.verify ?? null).toEqual(scenario.verify ?? null);
      expect(back.faults).toEqual(scenario.faults);
    }
  });
});
