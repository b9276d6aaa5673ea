import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExploreDocument } from "../../src/report/explore-document.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type CliResult, runBuiltCli, testFolder } from "../helpers/cli.js";
import { DEFAULT_COLUMNS, EXTENDED_COLUMNS } from "../helpers/explore-menus.js";
import { runInProcess } from "../helpers/in-process.js";

/**
 * `agentchaos explore examples/explore/order_agent.yaml`: the order agent retries every call but
 * the re-check of its order, so exactly the point `shop GET /orders/7 #2` fails, under every fault.
 */
const WEAK_POINT = "shop GET /orders/7 #2";
const dir = testFolder("all");
let result: CliResult;
let folder: string;
let document: ExploreDocument;

beforeAll(async () => {
  const out = join(dir.path, "explore");
  result = await runBuiltCli(
    ["explore", "examples/explore/order_agent.yaml", "--jobs", "2", "--output-dir", out],
    {
      timeoutMs: 170_000,
    },
  );
  const [id] = await readdir(out);
  folder = join(out, id as string);
  document = JSON.parse(await readFile(join(folder, "explore.json"), "utf8"));
}, 180_000);

describe("the explore example", () => {
  it("finds exactly its planted weakness, under every fault of the menu, and exits 1", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(document.status).toBe("completed");
    expect(document.points.map((point) => point.label)).toEqual([
      "llm POST /v1/chat/completions #1",
      "shop GET /orders/7 #1",
      "llm POST /v1/chat/completions #2",
      WEAK_POINT,
      "llm POST /v1/chat/completions #3",
    ]);
    const failed = document.experiments.filter((experiment) => experiment.result === "FAILED");
    expect(failed.map((experiment) => experiment.label.split(" | ")[0])).toEqual([
      WEAK_POINT,
      WEAK_POINT,
      WEAK_POINT,
    ]);
    expect(
      failed.every((experiment) => !experiment.flaky && experiment.confirmation?.result === "FAILED"),
    ).toBe(true);
    const weakCells = document.experiments.filter((experiment) => experiment.label.startsWith(WEAK_POINT));
    expect(weakCells.length).toBe(failed.length);
    const others = document.experiments.filter((experiment) => !experiment.label.startsWith(WEAK_POINT));
    expect(others.map((experiment) => experiment.result)).toEqual(others.map(() => "RECOVERED"));
    expect(document.summary).toMatchObject({ failed: 3, flaky: 0 });
  });

  it("prints the matrix: the weak row failed in each column, every other row recovered", () => {
    const matrix = result.stdout.slice(result.stdout.indexOf("Matrix (depth 1):"));
    const rows = matrix.split("\n").slice(2, 7);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const cells = row.split(/ {2,}/).slice(1);
      if (row.startsWith(WEAK_POINT))
        expect(cells.slice(0, 3)).toEqual(Array(3).fill("FAILED WORKLOAD_EXIT_CODE_MISMATCH"));
      else expect(cells.every((cell) => cell === "recovered" || cell === "-")).toBe(true);
    }
    expect(result.stdout).toMatch(/\[\d+\/\d+\] .+ \(ETA \d+s\)\n/);
    expect(result.stdout).toContain(`Seed:     ${document.settings.seed}\n`);
  });

  it("writes a replay for each failure that fails the same way when run alone", async () => {
    const replays = document.experiments.flatMap((experiment) =>
      experiment.replay === null ? [] : [experiment],
    );
    expect(replays.map((experiment) => experiment.replay)).toEqual([
      "replays/01-shop-get-orders-7-2-http-error-status-code-503.yaml",
      "replays/02-shop-get-orders-7-2-http-rate-limit-retry-after-seconds-1.yaml",
      "replays/03-shop-get-orders-7-2-http-disconnect.yaml",
    ]);
    for (const experiment of replays) {
      const runs = join(dir.path, `replay-${experiment.id}`);
      // From another working directory: the replay names its programs relative to itself. The
      // command runs in this process (what is checked is the replay, not the executable).
      const run = await runInProcess(
        ["run", join(folder, experiment.replay as string), "--output-dir", runs],
        dir.path,
      );
      expect(run.code).toBe(1);
      const [id] = await readdir(runs);
      const report = JSON.parse(await readFile(join(runs, id as string, "report.json"), "utf8"));
      expect([report.result, report.reason_code]).toEqual([experiment.result, experiment.reason_code]);
      expect(report.faults).toHaveLength(1);
      expect(report.faults[0]).toMatchObject({
        dependency: "shop",
        target: { method: "GET", path: "/orders/7" },
        injected: 1,
      });
    }
  }, 60_000);

  it("keeps the default menu exactly without --menu", () => {
    expect(result.stderr).toBe("");
    expect(document.settings.menu).toBe("default");
    expect(document.menu.map((entry) => entry.label)).toEqual(DEFAULT_COLUMNS);
    for (const column of EXTENDED_COLUMNS) expect(result.stdout).not.toContain(column);
  });

  it("writes one JUnit test case per experiment", async () => {
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      await readFile(join(folder, "junit.xml"), "utf8"),
    );
    const suite = junit.testsuites.testsuite;
    expect(suite["@_tests"]).toBe(String(document.experiments.length));
    expect(suite["@_failures"]).toBe("3");
    const names = (suite.testcase as { "@_name": string }[]).map((testcase) => testcase["@_name"]);
    expect(names).toEqual(document.experiments.map((experiment) => experiment.label));
  });
});

describe("the explore example's index.html in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the matrix, each cell linking to its run's report", async () => {
    const file = join(folder, "index.html");
    const { page, problems, requests } = await browser.open(file);
    expect(problems).toEqual([]);
    expect(requests).toEqual([`file://${file}`]);
    expect(await page.locator("#verdict").textContent()).toBe("FAILED");
    expect(await page.locator("#matrix tbody tr").count()).toBe(5);
    expect(await page.locator("#matrix td[data-cell=failed]").count()).toBe(3);
    const links = page.locator("#matrix td[data-experiment] a.run-link");
    const hrefs: string[] = [];
    for (let index = 0; index < (await links.count()); index++)
      hrefs.push((await links.nth(index).getAttribute("href")) ?? "");
    expect(hrefs.length).toBeGreaterThanOrEqual(document.experiments.length);
    for (const href of hrefs) expect(existsSync(join(folder, decodeURI(href)))).toBe(true);
    await page.locator(`#matrix tr[data-point=P4] td[data-cell=failed] a.run-link`).first().click();
    await page.waitForURL(/report\.html$/);
    expect(await page.locator("#verdict").textContent()).toBe("FAILED");
  });
});
