import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventsSchemaOf } from "../../src/scenario/additions.js";
import { ScenarioError, type ScenarioErrorCode } from "../../src/scenario/errors.js";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import { fileSchemaOf, type RunScenario, upgradeScenario } from "../../src/scenario/legacy/upgrade.js";
import { loadScenario } from "../../src/scenario/load.js";
import { schema1Source } from "../helpers/schema-1-source.js";
import { tempDir } from "../helpers/temp.js";
import { baseScenario, parseScenarioData } from "./scenario-data.js";

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/scenarios");

async function loadError(path: string): Promise<ScenarioError> {
  const error = await loadScenario(path).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ScenarioError);
  return error as ScenarioError;
}

describe("loadScenario", () => {
  it("returns the full scenario with snake_case keys mapped, the method upper-cased and cwd made absolute", async () => {
    const scenario = schema1Source(await loadScenario(join(FIXTURES, "full.yaml")));
    expect(scenario).toEqual<LegacyScenario>({
      schemaVersion: 1,
      name: "api-503-recovery",
      dependency: {
        type: "http",
        baseUrl: "http://127.0.0.1:19103/v1",
        start: {
          command: ["node", "fake-api.mjs", "--port", "19103"],
          cwd: resolve(FIXTURES, "../programs"),
          env: { FAKE_API_MODE: "normal" },
          readiness: { path: "/health", timeoutSeconds: 2.5 },
        },
      },
      workload: {
        name: "demo-agent",
        command: ["node", "demo-agent.mjs"],
        cwd: join(FIXTURES, "agents/demo"),
        env: { DEMO_MAX_ATTEMPTS: "3" },
        proxyUrlEnv: "CUSTOMER_API_URL",
      },
      fault: {
        type: "http_error",
        target: { method: "GET", path: "/customer/*" },
        trigger: { kind: "occurrence_schedule", occurrences: [2] },
        statusCode: 503,
      },
      success: { exitCode: 0 },
      timeoutSeconds: 10,
      sourcePath: join(FIXTURES, "full.yaml"),
    });
  });

  it("loads a schema-1 file as the internal model, what its file format keeps beside it", async () => {
    const loaded = await loadScenario(join(FIXTURES, "full.yaml"));
    const source = schema1Source(loaded);
    expect(loaded).toEqual(upgradeScenario(source));
    expect(loaded.schemaVersion).toBe(2);
    expect(loaded.dependencies.map((dependency) => [dependency.name, dependency.type])).toEqual([
      ["api", "http"],
    ]);
    expect(loaded.faults).toMatchObject([
      { dependency: "api", type: "http_error", statusCode: 503, expect: "recover" },
    ]);
    expect(loaded.recovery).toBe("fifo");
    // `proxy_url_env` is the dependency's `url_env`; its one dependency is unnamed (schema 1's
    // variables, log files and messages).
    expect(loaded.dependencies[0]).toMatchObject({ urlEnv: "CUSTOMER_API_URL" });
    expect(loaded.dependencyNaming).toBe("unnamed");
    expect([fileSchemaOf(loaded), eventsSchemaOf(loaded)]).toEqual([1, 1]);
  });

  it("loads a schema-2 file as it is, with no schema-1 parts", () => {
    const loaded: RunScenario = parseScenarioData(baseScenario());
    expect(loaded.legacy).toBeUndefined();
    expect(loaded.dependencyNaming).toBeUndefined();
    expect([fileSchemaOf(loaded), eventsSchemaOf(loaded)]).toEqual([2, 2]);
  });

  it("applies every default: timeout 60, no fault, no start, null name and proxy_url_env, empty env, the file's folder as cwd", async () => {
    const scenario = schema1Source(await loadScenario(join(FIXTURES, "minimal.yaml")));
    expect(scenario.timeoutSeconds).toBe(60);
    expect(scenario.fault).toBeNull();
    expect(scenario.dependency.start).toBeNull();
    expect(scenario.workload).toEqual({
      name: null,
      command: ["python3", "agent.py"],
      cwd: FIXTURES,
      env: {},
      proxyUrlEnv: null,
    });
  });

  it("keeps a seed of 2^64 - 1 exactly as a BigInt and the probability in exact millionths", async () => {
    const scenario = schema1Source(await loadScenario(join(FIXTURES, "probability.yaml")));
    expect(scenario.fault).toEqual({
      type: "http_rate_limit",
      target: { method: null, path: "/customer/*" },
      trigger: {
        kind: "seeded_probability",
        probability: 0.5,
        probabilityMillionths: 500_000,
        seed: 18446744073709551615n,
        window: { startOccurrence: 1, endOccurrence: 5 },
      },
      retryAfterSeconds: 0,
    });
  });

  describe("with files in a temp folder", () => {
    let folder: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      folder = await tempDir();
    });
    afterEach(async () => {
      await folder.remove();
    });

    it("resolves a relative path against the current directory and records the absolute source path", async () => {
      const file = join(folder.path, "nested", "scenario.yaml");
      await mkdir(dirname(file));
      await writeFile(
        file,
        "schema_version: 1\nname: n\ndependency: {type: http, base_url: http://h}\n" +
          "workload: {command: [a], cwd: ../work}\nsuccess: {exit_code: 0}\n",
      );
      const scenario = await loadScenario(relative(process.cwd(), file));
      expect(scenario.sourcePath).toBe(file);
      expect(scenario.workload.cwd).toBe(join(folder.path, "work"));
    });

    it("reports a missing file as SCENARIO_NOT_FOUND", async () => {
      expect((await loadError(join(folder.path, "absent.yaml"))).code).toBe<ScenarioErrorCode>(
        "SCENARIO_NOT_FOUND",
      );
    });

    it("reports a path through a regular file as SCENARIO_NOT_FOUND", async () => {
      await writeFile(join(folder.path, "file"), "x");
      const error = await loadError(join(folder.path, "file", "scenario.yaml"));
      expect(error.code).toBe<ScenarioErrorCode>("SCENARIO_NOT_FOUND");
    });

    it("reports a folder as SCENARIO_UNREADABLE", async () => {
      expect((await loadError(folder.path)).code).toBe<ScenarioErrorCode>("SCENARIO_UNREADABLE");
    });

    it.skipIf(process.getuid?.() === 0)(
      "reports a file without read permission as SCENARIO_UNREADABLE",
      async () => {
        const file = join(folder.path, "secret.yaml");
        await writeFile(file, "schema_version: 1\n");
        await chmod(file, 0o000);
        expect((await loadError(file)).code).toBe<ScenarioErrorCode>("SCENARIO_UNREADABLE");
      },
    );
  });
});
