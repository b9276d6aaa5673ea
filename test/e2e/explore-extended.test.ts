import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExploreDocument } from "../../src/report/explore-document.js";
import { type CliResult, runBuiltCli, testFolder } from "../helpers/cli.js";
import { DEFAULT_COLUMNS, EXTENDED_COLUMNS } from "../helpers/explore-menus.js";
import { observedInOutage } from "../helpers/outage-window.js";

/**
 * `explore --menu extended` of the order agent (examples/explore), kept small with a budget: seed
 * 5124 samples the outage of the model, a corruption and both misbehaving answers of its third call.
 * Two baseline runs: the outage starts at the earliest first call to the model over the baseline
 * (docs/explore.md), which a busy machine can put late.
 * The same explore without `--menu` keeping the default menu's columns only is checked on the
 * example's full run (explore-example.test.ts).
 */
const dir = testFolder("all");

async function exploreRun(name: string, extra: readonly string[]) {
  const out = join(dir.path, name);
  const result = await runBuiltCli(
    [
      "explore",
      "examples/explore/order_agent.yaml",
      "--baseline-runs",
      "2",
      "--jobs",
      "2",
      "--output-dir",
      out,
      "--reporter",
      "junit",
      ...extra,
    ],
    { timeoutMs: 110_000 },
  );
  const [id] = await readdir(out);
  const folder = join(out, id as string);
  const document = JSON.parse(await readFile(join(folder, "explore.json"), "utf8")) as ExploreDocument;
  return { result, folder, document };
}

let extended: { result: CliResult; folder: string; document: ExploreDocument };

beforeAll(async () => {
  extended = await exploreRun("extended", ["--menu", "extended", "--budget", "4", "--seed", "5124"]);
}, 120_000);

const experiment = (document: ExploreDocument, column: string) => {
  const menu = document.menu.find((entry) => entry.label === column);
  return document.experiments.find((each) => each.faults[0]?.menu === menu?.id);
};

describe("explore --menu extended", () => {
  it("adds the extended columns after the default ones, in explore.json and in the printed matrix", () => {
    expect(extended.result.stderr).toBe("");
    expect(extended.document.settings.menu).toBe("extended");
    expect(extended.document.menu.map((entry) => entry.label)).toEqual([
      ...DEFAULT_COLUMNS,
      ...EXTENDED_COLUMNS,
    ]);
    const matrix = extended.result.stdout.slice(extended.result.stdout.indexOf("Matrix (depth 1):"));
    const heading = matrix.split("\n")[1] ?? "";
    for (const column of [...DEFAULT_COLUMNS, ...EXTENDED_COLUMNS]) expect(heading).toContain(column);
    expect(extended.result.stdout).toContain("Menu: http_error status_code=503, ");
  });

  it("runs an outage of the model from the baseline's first call for 2 s; the agent's three quick retries do not outlast it", async () => {
    const outage = experiment(extended.document, "http_error status_code=503 outage_ms=2000");
    expect(outage?.label).toBe(
      "llm POST /v1/chat/completions #1 | http_error status_code=503 outage_ms=2000",
    );
    expect(outage?.faults[0]?.fault).toMatchObject({
      id: "p1-http-error-outage",
      dependency: "llm",
      type: "http_error",
      target: { path: "/*" },
      trigger: { outage: { duration_ms: 2000 } },
      status_code: 503,
    });
    // The outage takes the model calls from `start_ms` to `start_ms + 2000` after WORKLOAD_STARTED,
    // on the events' clock (docs/triggers.md). A baseline slowed by a busy machine can put its start
    // after every model call of the experiment; then nothing was selected, and the verdict says so.
    const fault = outage?.faults[0]?.fault as { trigger?: { outage?: { start_ms?: number } } } | undefined;
    const startMs = fault?.trigger?.outage?.start_ms ?? Number.NaN;
    const events = (
      await readFile(join(extended.folder, outage?.run_folder as string, "events.jsonl"), "utf8")
    )
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    const calls = observedInOutage(events, { startMs, durationMs: 2000 }, "llm");
    expect(calls.observed).toBeGreaterThan(0);
    const inOutage = calls.inside > 0;
    expect(outage).toMatchObject({
      result: "FAILED",
      reason_code: inOutage ? "WORKLOAD_EXIT_CODE_MISMATCH" : "FAULT_NOT_TRIGGERED",
    });
    expect(outage?.replay).toMatch(
      /^replays\/\d\d-llm-post-v1-chat-completions-1-http-error-status-code-503-outage/,
    );
  });

  it("corrupts the first leaf value without a pointer, watching stdout and the other dependency", async () => {
    const corrupt = experiment(extended.document, EXTENDED_COLUMNS[0] as string);
    expect(corrupt?.faults[0]?.fault).toEqual({
      id: "p5-http-corrupt",
      dependency: "llm",
      type: "http_corrupt",
      target: { method: "POST", path: "/v1/chat/completions" },
      trigger: { occurrence: 3 },
      expect: "handle",
      sinks: ["stdout", "shop"],
    });
    const events = await readFile(
      join(extended.folder, corrupt?.run_folder as string, "events.jsonl"),
      "utf8",
    );
    const injected = events
      .split("\n")
      .filter((line) => line.includes('"FAULT_INJECTED"'))
      .map((line) => JSON.parse(line).payload);
    expect(injected).toMatchObject([{ fault_id: "p5-http-corrupt", pointer: "/id", canary_type: "string" }]);
  });

  it("drops the misbehaving answer that had nothing to act on (no tool call) and keeps the one that had", () => {
    expect(
      experiment(extended.document, "llm_misbehave provider=openai kind=tool_args_invalid"),
    ).toBeUndefined();
    const point = extended.document.points.find((each) => each.label === "llm POST /v1/chat/completions #3");
    const menuId = (label: string) => extended.document.menu.find((entry) => entry.label === label)?.id;
    expect(point?.menu).not.toContain(menuId("llm_misbehave provider=openai kind=tool_args_invalid"));
    expect(point?.menu).toContain(menuId("llm_misbehave provider=openai kind=empty"));
    expect(experiment(extended.document, "llm_misbehave provider=openai kind=empty")).toMatchObject({
      result: "FAILED",
      reason_code: "RECOVERY_NOT_OBSERVED",
    });
    expect(extended.document.experiments).toHaveLength(3);
    expect(extended.result.code).toBe(1);
  });
});
