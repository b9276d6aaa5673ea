import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExploreDocument } from "../../src/report/explore-document.js";
import { groupAlive } from "../../src/support/process-group.js";
import { agentScenario } from "../explore/scenarios.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";

const dir = testFolder("each");

/** The pids of every workload and dependency the run folders started. */
async function startedPids(folder: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir(folder)) {
    if (name.includes(".") || name === "replays") continue;
    const text = await readFile(join(folder, name, "events.jsonl"), "utf8");
    for (const line of text.trimEnd().split("\n")) {
      const event = JSON.parse(line) as { type: string; payload: { pid?: number } };
      if (event.type === "WORKLOAD_STARTED" || event.type === "DEPENDENCY_STARTED")
        pids.push(event.payload.pid as number);
    }
  }
  return pids;
}

describe("interrupting an explore", () => {
  it("keeps the finished experiments, writes explore.json and the reporters, leaves no process and exits 130", async () => {
    const scenario = await agentScenario(dir.path, "slow", { paths: ["/a"], env: { SLEEP_MS: "1500" } });
    const out = join(dir.path, "explore");
    let sent = false;
    const result = await runBuiltCli(
      ["explore", scenario, "--jobs", "2", "--baseline-runs", "1", "--output-dir", out],
      {
        timeoutMs: 60_000,
        onStdout: (text, child) => {
          if (!sent && text.includes("[1/3]")) {
            sent = true;
            child.kill("SIGINT");
          }
        },
      },
    );
    expect(sent).toBe(true);
    expect(result.code).toBe(130);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("\nExplore interrupted. 1 experiment: ");
    const [id] = await readdir(out);
    const folder = join(out, id as string);
    const document: ExploreDocument = JSON.parse(await readFile(join(folder, "explore.json"), "utf8"));
    expect(document.status).toBe("interrupted");
    expect(document.experiments.map((experiment) => experiment.id)).toEqual(["E1"]);
    expect(document.experiments[0]?.result).toBe("RECOVERED");
    expect(await readdir(folder)).toEqual(
      expect.arrayContaining(["explore.json", "junit.xml", "index.html"]),
    );
    const runFolders = (await readdir(folder)).filter((name) => !name.includes("."));
    // The baseline, the finished experiment, and the one or two that had started when interrupted.
    expect(runFolders.length === 3 || runFolders.length === 4).toBe(true);
    const pids = await startedPids(folder);
    // At least the baseline's, the finished experiment's and the interrupted one's workload and dependency.
    expect(pids.length).toBeGreaterThanOrEqual(6);
    await eventually(() => pids.every((pid) => !groupAlive(pid)), { what: "every process it started ended" });
  }, 90_000);
});
