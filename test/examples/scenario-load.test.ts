import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenario } from "../../src/scenario/load.js";
import { schema1Source } from "../helpers/schema-1-source.js";
import { EXAMPLES_DIR } from "./helpers/programs.js";
import { SCENARIOS_DIR, scenarioFiles } from "./helpers/scenario-files.js";

describe("the scenario loader and the bundled examples", () => {
  it.each(scenarioFiles())("%s is a valid scenario whose programs exist in examples/", async (file) => {
    const scenario = schema1Source(await loadScenario(join(SCENARIOS_DIR, file)));
    const start = scenario.dependency.start;
    expect(start).not.toBeNull();
    for (const spec of [start, scenario.workload]) {
      expect(spec?.cwd.replace(/\/+$/, "")).toBe(EXAMPLES_DIR.replace(/\/+$/, ""));
      const script = spec?.command[1] ?? "";
      expect(existsSync(join(EXAMPLES_DIR, script))).toBe(true);
    }
  });
});
