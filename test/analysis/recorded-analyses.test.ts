/**
 * The analyses of the seeded random runs (test/analysis/random-logs.ts) and of the golden
 * schema-1 runs, and the SHA-256 of the report each builds, as recorded in
 * test/fixtures/analysis/. They were recorded from the analyzers the one analysis replaced, when
 * both gave the same results; any change to a verdict, a row, a count or a report byte shows
 * here. `UPDATE_ANALYSIS_FIXTURES=1` records them again from the current code (CONTRIBUTING.md).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import { loadScenario } from "../../src/scenario/load.js";
import type { Scenario } from "../../src/scenario/types.js";
import { ROOT } from "../helpers/cli.js";
import { type AnyEvent, analysisText, analyzeAny, reportText } from "./any-schema.js";
import { randomRun } from "./random-logs.js";

const FIXTURES = join(ROOT, "test", "fixtures", "analysis");
const UPDATE = process.env.UPDATE_ANALYSIS_FIXTURES === "1";
const RUNS = 600;

interface Recorded {
  readonly run: string;
  readonly analysis: unknown;
  readonly report_sha256: string;
}

function record(run: string, scenario: LegacyScenario | Scenario, events: readonly AnyEvent[]): Recorded {
  const analysis = analyzeAny(scenario, events);
  return {
    run,
    analysis: JSON.parse(analysisText(analysis)),
    report_sha256: createHash("sha256").update(reportText(scenario, analysis)).digest("hex"),
  };
}

/** One entry per line: a diff shows which runs changed. */
async function compare(file: string, entries: readonly Recorded[]): Promise<void> {
  const path = join(FIXTURES, file);
  if (UPDATE || !existsSync(path)) {
    if (!UPDATE) throw new Error(`no recorded analyses in ${file}`);
    await mkdir(FIXTURES, { recursive: true });
    await writeFile(path, `[\n${entries.map((entry) => JSON.stringify(entry)).join(",\n")}\n]\n`);
    return;
  }
  const recorded = JSON.parse(await readFile(path, "utf8")) as Recorded[];
  expect(recorded.map((entry) => entry.run)).toEqual(entries.map((entry) => entry.run));
  entries.forEach((entry, i) => {
    expect(JSON.stringify(entry), entry.run).toBe(JSON.stringify(recorded[i]));
  });
}

describe.each([1, 2] as const)("recorded analyses of schema-%i runs", (schema) => {
  it(`${RUNS} random runs give the recorded analyses and reports`, async () => {
    const entries = Array.from({ length: RUNS }, (_, i) => {
      const seed = (i + 1) * 31 + schema;
      const { scenario, events } = randomRun(seed, schema, false, false);
      return record(`random ${seed}`, scenario, events);
    });
    await compare(`schema-${schema}-random.json`, entries);
  });

  it(`${RUNS} damaged runs give the recorded analyses and reports`, async () => {
    const entries = Array.from({ length: RUNS }, (_, i) => {
      const seed = (i + 1) * 13 + schema;
      const { scenario, events } = randomRun(seed, schema, true, false);
      return record(`damaged ${seed}`, scenario, events);
    });
    await compare(`schema-${schema}-damaged.json`, entries);
  });
});

describe("recorded analyses of the golden schema-1 runs", () => {
  it("every golden events file gives the recorded analysis and report", async () => {
    const golden = join(ROOT, "test", "fixtures", "golden");
    const names = readdirSync(golden)
      .filter((file) => file.endsWith(".events.jsonl"))
      .map((file) => file.replace(".events.jsonl", ""))
      // The recorded analyses cover the runs of the bundled examples; the schema-1 fixture runs
      // (setup errors, variables) are checked byte for byte by test/e2e/schema-1-terminal.test.ts.
      .filter((name) => !name.startsWith("schema-1-"))
      .sort();
    expect(names.length).toBeGreaterThan(5);
    const entries: Recorded[] = [];
    for (const name of names) {
      const scenario = await loadScenario(join(ROOT, "examples", "scenarios", `${name}.yaml`));
      const lines = (await readFile(join(golden, `${name}.events.jsonl`), "utf8")).trimEnd().split("\n");
      entries.push(
        record(
          name,
          scenario,
          lines.map((line) => JSON.parse(line) as AnyEvent),
        ),
      );
    }
    await compare("golden.json", entries);
  });
});
