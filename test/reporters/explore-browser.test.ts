/** The explore page's matrix in a real browser: seven menu columns fit the page, nothing cut off. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentRecord, ExploreDocument } from "../../src/report/explore-document.js";
import { summarize } from "../../src/report/explore-document.js";
import { renderExplorePage } from "../../src/reporters/html/explore-page.js";
import { writeFileAtomically } from "../../src/support/write-file.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { testFolder } from "../helpers/cli.js";

const dir = testFolder("each");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const MENU = [
  "http_error status_code=503",
  "http_rate_limit retry_after_seconds=1",
  "http_disconnect",
  "http_stream_truncate after_events=3",
  "http_stream_reset after_events=3",
  "http_response_lost",
  "http_llm_error provider=openai status_code=529 expect=handle",
].map((label, index) => ({ id: `M${index + 1}`, label, fault: { type: label.split(" ")[0] as string } }));

const POINTS = [
  "llm POST /v1/chat/completions #1",
  "tools GET /weather/Paris #1",
  "llm POST /v1/chat/completions #2",
];

const REASONS = ["PARTIAL_RESPONSE_ACCEPTED", "RECOVERY_NOT_OBSERVED", "WORKLOAD_EXIT_CODE_MISMATCH"];

function sevenColumns(): ExploreDocument {
  const experiments: ExperimentRecord[] = [];
  POINTS.forEach((point, p) => {
    MENU.forEach((menu, m) => {
      const failed = (p + m) % 2 === 0;
      experiments.push({
        id: `E${experiments.length + 1}`,
        depth: 1,
        label: `${point} | ${menu.label}`,
        faults: [{ point: `P${p + 1}`, menu: menu.id, fault: menu.fault }],
        result: failed ? "FAILED" : "RECOVERED",
        reason_code: failed ? (REASONS[(p + m) % 3] as string) : "RECOVERY_OBSERVED",
        exit_code: failed ? 1 : 0,
        duration_ms: 900,
        run_folder: `run-${p}-${m}`,
        flaky: false,
        confirmation: null,
        replay: null,
      });
    });
  });
  return {
    schema_version: 1,
    explore_id: "20261201T000000Z-00000000",
    scenario: { path: "agent.yaml", name: "agent", schema_version: 2 },
    started_at: "2026-12-01T00:00:00.000Z",
    finished_at: "2026-12-01T00:00:09.000Z",
    status: "completed",
    message: null,
    settings: { depth: 1, budget: 50, jobs: 2, baseline_runs: 2, seed: 3, menu: "default" },
    baseline: [],
    points: POINTS.map((label, index) => ({
      id: `P${index + 1}`,
      label,
      dependency: label.split(" ")[0] as string,
      protocol: "http" as const,
      method: "POST",
      path: "/v1/chat/completions",
      k: 1,
      relayed_events: 5,
      menu: MENU.map((menu) => menu.id),
    })),
    skipped_points: [],
    menu: MENU,
    not_available: [],
    candidates: { depth_1: experiments.length, depth_2: 0 },
    experiments,
    summary: summarize(experiments),
  };
}

describe("the explore page in a real browser", () => {
  it("fits a matrix of seven menu columns in the page width, with every cell visible", async () => {
    const file = await writeFileAtomically(
      dir.path,
      "index.html",
      renderExplorePage(sevenColumns(), new Map()),
    );
    const { page, problems } = await browser.open(file);
    await page.screenshot({ path: join(dir.path, "explore.png"), fullPage: true });
    expect(problems).toEqual([]);
    // Measured in the page (the test's TypeScript has no DOM types, so the script is text).
    const sizes = (await page.evaluate(`(() => {
      const table = document.querySelector("#matrix");
      const wrap = table.parentElement;
      return {
        table: table.getBoundingClientRect().right,
        wrap: wrap.getBoundingClientRect().right,
        scroll: wrap.scrollWidth - wrap.clientWidth,
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    })()`)) as { table: number; wrap: number; scroll: number; page: number };
    expect(sizes.table).toBeLessThanOrEqual(sizes.wrap + 0.5);
    expect(sizes.scroll).toBe(0);
    expect(sizes.page).toBe(0);
    expect(await page.locator("#matrix thead th").count()).toBe(8);
    expect(await page.locator("#matrix tbody td.cell").count()).toBe(21);
  });
});
