import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groupAlive, processAlive } from "../../src/support/process-group.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { childrenOf } from "../helpers/processes.js";
import { fixtureDependency, freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

describe.runIf(process.platform === "linux")("SIGKILL of agentchaos run", () => {
  it("leaves no process of the run alive: dependency, workload tree, supervisor", async () => {
    const port = await freePort();
    const pidFile = join(dir.path, "tree.json");
    const file = await writeScenario(
      dir.path,
      "killed",
      `schema_version: 1
name: killed
${fixtureDependency(port)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "stubborn-tree.mjs"), pidFile, "stubborn"])}
success:
  exit_code: 0
`,
    );
    let started: number[] = [];
    let killed = false;
    const result = await runBuiltCli(["run", file, "--output-dir", join(dir.path, "runs")], {
      onStdout: (text, child) => {
        if (!killed && text.includes("[workload OUT] tree started") && child.pid !== undefined) {
          started = childrenOf(child.pid);
          killed = true;
          child.kill("SIGKILL");
        }
      },
    });
    expect(result.signal).toBe("SIGKILL");
    const tree = JSON.parse(await readFile(pidFile, "utf8")) as { child: number; grandchild: number };
    // The dependency, the workload and the supervisor are the runner's children.
    expect(started.length).toBe(3);
    expect(started).toContain(tree.child);
    const all = [...new Set([...started, tree.child, tree.grandchild])];
    await eventually(() => all.every((pid) => !processAlive(pid) && !groupAlive(pid)), {
      what: "every process of the killed run ended",
    });
  });

  it("while the dependency is still starting ends the dependency too", async () => {
    const port = await freePort();
    const file = await writeScenario(
      dir.path,
      "killed-early",
      `schema_version: 1
name: killed-early
${fixtureDependency(port, ["--ready-after", "600000"], 60)}workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
success:
  exit_code: 0
`,
    );
    let started: number[] = [];
    let killing = false;
    const result = await runBuiltCli(["run", file, "--output-dir", join(dir.path, "runs")], {
      onStdout: (text, child) => {
        if (!killing && text.includes("Starting experiment") && child.pid !== undefined) {
          killing = true;
          const cli = child.pid;
          // Killed while the dependency waits for readiness (it never becomes ready).
          const poll = setInterval(() => {
            started = childrenOf(cli);
            if (started.length >= 2) {
              clearInterval(poll);
              setTimeout(() => child.kill("SIGKILL"), 200);
            }
          }, 20);
          child.once("exit", () => clearInterval(poll));
        }
      },
    });
    expect(result.signal).toBe("SIGKILL");
    expect(started.length).toBe(2);
    await eventually(() => started.every((pid) => !processAlive(pid) && !groupAlive(pid)), {
      what: "every process of the killed run ended",
    });
  });
});
