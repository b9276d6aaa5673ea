import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "./cli.js";

/**
 * Golden files of schema-1 runs: the events and report of a run with everything that differs
 * from run to run masked (ids, times, durations, pids, the proxy's port). They were written
 * by the build before schema 2 existed; schema 1 must keep producing exactly these bytes.
 * `UPDATE_GOLDEN=1` rewrites them from the current build.
 */
const GOLDEN_DIR = join(ROOT, "test", "fixtures", "golden");

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const RUN_ID = /\d{8}T\d{6}Z-[0-9a-f]+/g;

/** Masks the variable parts of a run's JSON text; operation ids become op-1, op-2 … in order of appearance. */
export function maskRunText(text: string): string {
  const ids = new Map<string, string>();
  return text
    .replace(UUID, (id) => {
      let name = ids.get(id);
      if (name === undefined) {
        name = `id-${ids.size + 1}`;
        ids.set(id, name);
      }
      return name;
    })
    .replace(TIMESTAMP, "<time>")
    .replace(/"run_id": ?"[^"]*"/g, '"run_id":"<run>"')
    .replace(RUN_ID, "<run>")
    .replace(/"(elapsed_ms|duration_ms|recovery_latency_ms|pid)": ?\d+/g, '"$1":0')
    .replace(/http:\/\/127\.0\.0\.1:\d+"/g, (match) =>
      match.includes(":19") ? match : 'http://127.0.0.1:<port>"',
    );
}

/** Compares a run folder's masked events.jsonl and report.json with the golden files of `name`. */
export async function expectGolden(name: string, runDir: string): Promise<void> {
  const events = maskRunText(await readFile(join(runDir, "events.jsonl"), "utf8"));
  const report = maskRunText(await readFile(join(runDir, "report.json"), "utf8"));
  const eventsFile = join(GOLDEN_DIR, `${name}.events.jsonl`);
  const reportFile = join(GOLDEN_DIR, `${name}.report.json`);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(eventsFile)) {
    if (process.env.UPDATE_GOLDEN !== "1") throw new Error(`no golden file for ${name}`);
    await mkdir(dirname(eventsFile), { recursive: true });
    await writeFile(eventsFile, events);
    await writeFile(reportFile, report);
    return;
  }
  expect(events).toBe(await readFile(eventsFile, "utf8"));
  expect(report).toBe(await readFile(reportFile, "utf8"));
}
