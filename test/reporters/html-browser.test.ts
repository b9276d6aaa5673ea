import { cp, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderRunFolder } from "../../src/reporters/html/run-page.js";
import { DETAIL_LIMIT } from "../../src/reporters/html/timeline.js";
import { runSuite } from "../../src/suite/run-suite.js";
import { writeFileAtomically } from "../../src/support/write-file.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { testFolder } from "../helpers/cli.js";
import { freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";
import { exitScenario, recoveringScenario } from "../suite/scenarios.js";
import { writeBigRun } from "./big-run.js";

const FIXTURE_V4 = join(import.meta.dirname, "..", "fixtures", "runs", "v4-three-dependencies");
const dir = testFolder("each");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Opens a page, checks it loaded nothing but itself and logged nothing, saves a screenshot. */
async function openChecked(file: string, shot: string) {
  const opened = await browser.open(file);
  await opened.page.screenshot({ path: join(dir.path, shot), fullPage: true });
  expect((await stat(join(dir.path, shot))).size).toBeGreaterThan(1000);
  expect(opened.problems).toEqual([]);
  expect(opened.requests).toEqual([`file://${file}`]);
  return opened.page;
}

async function attributes(
  page: import("playwright-core").Page,
  selector: string,
  name: string,
): Promise<string[]> {
  const found = page.locator(selector);
  const values: string[] = [];
  for (let index = 0; index < (await found.count()); index++) {
    values.push((await found.nth(index).getAttribute(name)) ?? "");
  }
  return values;
}

/** A schema-1 recovering run's report.html: the verdict, one lane, the injection, the retry link and the recovery. */
async function expectRecoveringRunPage(runFolder: string): Promise<void> {
  const file = join(runFolder, "report.html");
  const html = await readFile(file, "utf8");
  expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
  const page = await openChecked(file, "run-v1.png");
  expect(await page.locator("#verdict").textContent()).toBe("RECOVERED");
  expect(await page.locator("#reason").textContent()).toBe("RECOVERY_OBSERVED");
  expect(await attributes(page, "g.lane", "data-lane")).toEqual(["dependency"]);
  expect(await page.locator("rect.op").count()).toBe(2);
  expect(await attributes(page, "g.injection", "data-fault-id")).toEqual(["http_error"]);
  const report = JSON.parse(await readFile(join(runFolder, "report.json"), "utf8"));
  expect(report.schema_version).toBe(2);
  const [row] = report.recovery.evidence;
  expect(await attributes(page, "path.retry-link", "data-from")).toEqual([row?.failed_operation_id]);
  expect(await attributes(page, "path.retry-link", "data-to")).toEqual([row?.retry_operation_id]);
  expect(await page.locator("text.recovery-label").textContent()).toBe(
    `recovered +${row?.recovery_latency_ms} ms`,
  );
  expect(await page.locator("#recovery tbody tr").count()).toBe(1);
  expect(await page.locator("#faults tbody tr td").first().textContent()).toBe("http_error");
}

describe("HTML reports in a real browser", () => {
  it("a schema-4 run shows one lane per dependency, faults by id, every retry link and the checks", async () => {
    const folder = join(dir.path, "v4");
    await cp(FIXTURE_V4, folder, { recursive: true });
    const file = await writeFileAtomically(folder, "report.html", await renderRunFolder(folder));
    const page = await openChecked(file, "run-v4.png");
    expect(await page.locator("#verdict").textContent()).toBe("RECOVERED");
    expect(await attributes(page, "g.lane", "data-lane")).toEqual(["llm", "crm", "notes"]);
    expect(await attributes(page, "g.injection", "data-fault-id")).toEqual([
      "llm-overloaded",
      "crm-down",
      "crm-down",
    ]);
    expect(await attributes(page, "g.injection", "data-operation-id")).toEqual(["op-1", "op-3", "op-4"]);
    const links = await Promise.all([
      attributes(page, "path.retry-link", "data-from"),
      attributes(page, "path.retry-link", "data-to"),
    ]);
    expect(links[0].map((from, index) => `${from}->${links[1][index]}`)).toEqual([
      "op-1->op-2",
      "op-3->op-4",
      "op-3->op-5",
    ]);
    expect(await attributes(page, "text.recovery-label", "data-operation-id")).toEqual(["op-2", "op-5"]);
    expect(await page.locator("text.recovery-label").allTextContents()).toEqual([
      "recovered +370 ms",
      "recovered +641 ms",
    ]);
    expect(await page.locator("g.lane[data-lane=notes] rect.op").count()).toBe(1);
    expect(await page.locator("#faults tbody tr").count()).toBe(2);
    expect(await page.locator("#checks tbody tr").count()).toBe(3);
    expect(await page.locator("#dependencies tbody tr").count()).toBe(3);
    expect(await page.locator("#recovery tbody tr td code").allTextContents()).toEqual([
      "llm-overloaded",
      "crm-down",
      "crm-down",
    ]);
    // Operations are named by label everywhere a person reads; ids stay in tooltips and data.
    expect(await page.locator("#recovery tbody tr td a").allTextContents()).toEqual([
      "llm POST /v1/chat/completions #1",
      "llm POST /v1/chat/completions #2",
      "crm POST /tickets/123 #1",
      "crm POST /tickets/123 #3",
      "crm POST /tickets/123 #2",
      "crm POST /tickets/123 #3",
    ]);
    expect(await attributes(page, "#recovery tbody tr td a", "href")).toContain("#operation-op-5");
    const operations = page.locator("#operations tbody tr");
    expect(await operations.count()).toBe(7);
    expect(await operations.nth(0).locator("td").allTextContents()).toEqual([
      "llm POST /v1/chat/completions #1",
      "injected_http_error 503",
      "1 ms",
      "llm-overloaded",
      "—",
    ]);
    expect(await operations.nth(1).locator("td").nth(4).textContent()).toBe(
      "llm POST /v1/chat/completions #1",
    );
    expect(await operations.nth(5).locator("td").first().textContent()).toBe("notes tools/call save_note #1");
    expect(await page.locator("#operations").isVisible()).toBe(true);
    const html = await readFile(file, "utf8");
    expect(html.replace(/(?:title|data-[a-z-]+|id|href)="[^"]*"/g, "")).not.toMatch(/\bop-[1-7]\b/);
  });

  it("a run's timeline labels never overlap, even for injections and recoveries close together", async () => {
    const folder = join(dir.path, "v4-close");
    await cp(FIXTURE_V4, folder, { recursive: true });
    // Squeeze the injections and retries into the first tenth of the run (the last call stays late).
    const events = (await readFile(join(folder, "events.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => {
        const event = JSON.parse(line) as { elapsed_ms: number };
        const elapsed = event.elapsed_ms < 1200 ? Math.round(event.elapsed_ms / 10) : event.elapsed_ms;
        return JSON.stringify({ ...event, elapsed_ms: elapsed });
      });
    await writeFileAtomically(folder, "events.jsonl", `${events.join("\n")}\n`);
    const file = await writeFileAtomically(folder, "report.html", await renderRunFolder(folder));
    const page = await openChecked(file, "run-v4-close.png");
    const labels = page.locator("svg.timeline text.fault-label, svg.timeline text.recovery-label");
    const boxes: { x: number; y: number; width: number; height: number }[] = [];
    for (let index = 0; index < (await labels.count()); index++) {
      const box = await labels.nth(index).boundingBox();
      if (box !== null) boxes.push(box);
    }
    expect(boxes.length).toBeGreaterThan(0);
    const overlapping = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter(
          (b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height,
        )
        .map(() => i),
    );
    expect(overlapping).toEqual([]);
    // What is not drawn as text is still in the tooltips.
    expect(await page.locator("svg.timeline g.injection").count()).toBe(3);
  });

  // The suite's recovering run is also the schema-1 run whose own page is checked in detail.
  it("a suite's index.html lists every scenario with its verdict and links to each run's page; a schema-1 run's report.html shows the verdict, one lane, the injection, the retry link and the recovery", async () => {
    const scenarios = join(dir.path, "scenarios");
    await mkdir(scenarios);
    await recoveringScenario(scenarios, "a-recovering", "suite-recovering", await freePort());
    await exitScenario(scenarios, "b-failing", "suite-failing", await freePort(), 1);
    const cwd = process.cwd();
    const document = await runSuite([scenarios], { outputDir: join(dir.path, "suites"), jobs: 2 });
    expect(document.entries.map((entry) => entry.result)).toEqual(["RECOVERED", "FAILED"]);
    const folder = join(dir.path, "suites", document.suite_id);
    const page = await openChecked(join(folder, "index.html"), "suite.png");
    expect(process.cwd()).toBe(cwd);
    expect(await page.locator("#verdict").textContent()).toBe("FAILED");
    expect(await attributes(page, "tr.entry", "data-result")).toEqual(["RECOVERED", "FAILED"]);
    const hrefs = await attributes(page, "a.run-link", "href");
    expect(hrefs).toEqual(document.entries.map((entry) => `${entry.run_folder}/report.html`));
    await page.locator("a.run-link").first().click();
    await page.waitForURL(/report\.html$/);
    expect(await page.locator("#verdict").textContent()).toBe("RECOVERED");
    await expectRecoveringRunPage(join(folder, document.entries[0]?.run_folder ?? ""));
  });

  it("a suite run with trials shows each scenario's trials as a row of marks, each linking to its trial's run page", async () => {
    const scenarios = join(dir.path, "scenarios");
    await mkdir(scenarios);
    // Flaky on its own: the agent fails every second run (FLIP_FILE) and calls nothing, so no
    // dependency is started for it.
    await writeScenario(
      scenarios,
      "a-flaky",
      `schema_version: 2\nname: a-flaky\ndependencies:\n  api: {type: http, base_url: "http://127.0.0.1:${await freePort()}"}\nworkload:\n  name: agent\n  command: ${yamlList([process.execPath, join(PROGRAMS, "explore-agent.mjs")])}\n  env:\n    FLIP_FILE: ${JSON.stringify(join(dir.path, "flip.count"))}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
    );
    // A steady second row: a workload that exits 0 passes every trial (no dependency to start).
    await exitScenario(scenarios, "b-passing", "trials-passing", await freePort(), 0);
    const document = await runSuite([scenarios], {
      outputDir: join(dir.path, "suites"),
      jobs: 1,
      trials: 3,
      minPassRate: 0.5,
    });
    expect(document.schema_version).toBe(2);
    expect(
      document.entries.map((entry) => [entry.result, entry.trials?.class, entry.trials?.passed]),
    ).toEqual([
      ["PASSED", "flaky", 2],
      ["PASSED", "stable_pass", 3],
    ]);
    const folder = join(dir.path, "suites", document.suite_id);
    const page = await openChecked(join(folder, "index.html"), "suite-trials.png");
    expect(await attributes(page, "tr.entry", "data-class")).toEqual(["flaky", "stable_pass"]);
    expect(await page.locator("a.run-link").count()).toBe(0);
    const rows = page.locator("tr.entry");
    for (const [index, entry] of document.entries.entries()) {
      const marks = rows.nth(index).locator("a.trial-mark");
      const hrefs: string[] = [];
      const results: string[] = [];
      for (let mark = 0; mark < (await marks.count()); mark++) {
        hrefs.push((await marks.nth(mark).getAttribute("href")) ?? "");
        results.push((await marks.nth(mark).getAttribute("data-result")) ?? "");
      }
      expect(hrefs).toEqual(entry.trials?.runs.map((run) => `${run.run_folder}/report.html`));
      expect(results).toEqual(entry.trials?.runs.map((run) => run.result));
    }
    expect(await rows.nth(0).locator(".trials-summary").textContent()).toContain(
      "3 trials: 2 passed, 1 failed (WORKLOAD_EXIT_CODE_MISMATCH ×1) — flaky",
    );
    const failedMark = rows.nth(0).locator('a.trial-mark[data-result="FAILED"]');
    expect(await failedMark.textContent()).toBe("✗");
    await failedMark.click();
    await page.waitForURL(/report\.html$/);
    expect(await page.locator("#verdict").textContent()).toBe("FAILED");
  }, 90_000);

  it(`a run of more than ${DETAIL_LIMIT} operations is drawn as buckets with its injections kept`, async () => {
    const folder = join(dir.path, "big");
    await mkdir(folder);
    await writeBigRun(folder, 2000);
    const file = await writeFileAtomically(folder, "report.html", await renderRunFolder(folder));
    const page = await openChecked(file, "run-big.png");
    expect(await page.locator("svg.timeline.aggregated").count()).toBe(1);
    expect(await page.locator("rect.op").count()).toBe(0);
    expect(await page.locator("g.injection").count()).toBeGreaterThan(10);
    expect(await page.locator("p.note").first().textContent()).toContain("2000 operations");
  });
});
