import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groupAlive } from "../../src/support/process-group.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { freePort } from "../helpers/scenario-files.js";
import { exitScenario, foreverScenario } from "../suite/scenarios.js";

const dir = testFolder("each");

async function workloadPids(runFolder: string): Promise<number[]> {
  const text = await readFile(join(runFolder, "events.jsonl"), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; payload: { pid?: number } })
    .filter((event) => event.type === "WORKLOAD_STARTED")
    .map((event) => event.payload.pid as number);
}

describe("interrupting a suite", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s stops every running experiment, leaves no process, keeps the finished reports and exits 130",
    async (signal) => {
      await exitScenario(dir.path, "1-quick", "quick", await freePort());
      await foreverScenario(dir.path, "2-forever", await freePort());
      await foreverScenario(dir.path, "3-forever", await freePort());
      const out = join(dir.path, "suites");
      let sent = false;
      const result = await runBuiltCli(["suite", dir.path, "--jobs", "3", "--output-dir", out], {
        onStdout: (text, child) => {
          if (!sent && text.includes("BASELINE_SUCCEEDED")) {
            sent = true;
            child.kill(signal);
          }
        },
      });
      expect(sent).toBe(true);
      expect(result.code).toBe(130);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain("\nSuite interrupted.\n");
      const [id] = await readdir(out);
      const folder = join(out, id as string);
      const document = JSON.parse(await readFile(join(folder, "suite.json"), "utf8"));
      expect(document.interrupted).toBe(true);
      expect(document.entries.map((entry: { name: string }) => entry.name)).toEqual(["quick"]);
      const names = await readdir(folder);
      expect(names).toEqual(expect.arrayContaining(["suite.json", "junit.xml", "index.html"]));
      const runFolders = names.filter((name) => !name.includes("."));
      expect(runFolders.length).toBe(3);
      const pids: number[] = [];
      for (const runFolder of runFolders) {
        const report = JSON.parse(await readFile(join(folder, runFolder, "report.json"), "utf8"));
        if (report.scenario_name !== "quick") expect(report.workload.interrupted).toBe(true);
        pids.push(...(await workloadPids(join(folder, runFolder))));
      }
      expect(pids.length).toBe(3);
      await eventually(() => pids.every((pid) => !groupAlive(pid)), {
        what: "every process it started ended",
      });
      const junit = await readFile(join(folder, "junit.xml"), "utf8");
      expect(junit).toContain('tests="1"');
    },
  );
});
