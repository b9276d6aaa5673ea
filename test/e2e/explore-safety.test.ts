import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentScenario, menuFile } from "../explore/scenarios.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";

const dir = testFolder("each");
const SECRET = "planted-secret-7f3a";

async function files(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(folder)) {
    const path = join(folder, name);
    if ((await stat(path)).isDirectory()) found.push(...(await files(path)));
    else found.push(path);
  }
  return found;
}

describe("what explore writes", () => {
  it("holds no query value, header or environment value, but in the scenario copies and replays that quote the file", async () => {
    // The agent sends the secret as a query value and a header; the scenario gives it in the workload's env.
    const scenario = await agentScenario(dir.path, "secretive", { paths: ["/a"], env: { PLANTED: SECRET } });
    // The agent retries a 400 it was expected to give up on: a failure, so a replay is written too.
    const menu = await menuFile(
      dir.path,
      "menu",
      "- {type: http_error, status_code: 503}\n- {type: http_error, status_code: 400, expect: give_up}\n",
    );
    const out = join(dir.path, "explore");
    const result = await runBuiltCli(
      [
        "explore",
        scenario,
        "--menu",
        menu,
        "--baseline-runs",
        "1",
        "--reporter",
        "junit,ctrf,html",
        "--output-dir",
        out,
      ],
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAILED UNEXPECTED_RETRY");
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
    const written = await files(out);
    expect(written.some((path) => path.endsWith("explore.json"))).toBe(true);
    expect(written.some((path) => path.includes("/replays/"))).toBe(true);
    for (const path of written) {
      const quotesTheScenario = path.endsWith("scenario.yaml") || path.includes("/replays/");
      if (quotesTheScenario) continue;
      expect(await readFile(path, "utf8"), path).not.toContain(SECRET);
    }
  }, 90_000);
});
