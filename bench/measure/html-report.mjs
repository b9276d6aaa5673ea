// 6. HTML report of a 10,000-operation run: the time `agentchaos report --format html` takes to
// build report.html from the run folder, and the time Chromium (the system's, through
// playwright-core) takes to load it (navigation start to the end of the load event), median of
// LOADS loads in a fresh page each.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { writeBigRun } from "../lib/big-run.mjs";
import { CLI, ROOT } from "../lib/paths.mjs";
import { runCommand } from "../lib/processes.mjs";
import { median, round } from "../lib/stats.mjs";
import { makeTempDir, removeTempDir } from "../lib/temp-dirs.mjs";

const OPERATIONS = 10_000;
const LOADS = 5;
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function htmlReport() {
  const folder = makeTempDir("agentchaos-bench-html-");
  const profile = mkdtempSync(join(tmpdir(), "agentchaos-bench-chromium-"));
  try {
    const { operations, events } = writeBigRun(folder, OPERATIONS);
    const page = join(folder, "report.html");
    const render = await runCommand(
      process.execPath,
      [CLI, "report", folder, "--format", "html", "--output", page],
      { cwd: ROOT },
    );
    if (render.code !== 0) throw new Error(`report exited ${render.code}`);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.AGENTCHAOS_CHROMIUM ?? "/usr/bin/chromium",
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const loads = [];
    try {
      for (let run = 0; run < LOADS; run += 1) {
        const tab = await context.newPage();
        await tab.goto(`file://${page}`, { waitUntil: "load" });
        loads.push(await tab.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd));
        await tab.close();
      }
    } finally {
      await context.close();
    }
    return {
      operations,
      events,
      htmlKb: round(statSync(page).size / 1024, 1),
      renderMs: round(render.wallMs, 1),
      loadMs: round(median(loads), 1),
      loads: LOADS,
    };
  } finally {
    removeTempDir(folder);
    rmSync(profile, { recursive: true, force: true });
  }
}
