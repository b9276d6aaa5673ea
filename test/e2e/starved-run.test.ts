import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { starvedRun } from "../helpers/starved-run.js";

const GOLDEN = join(ROOT, "test", "fixtures", "golden");

async function golden(name: string): Promise<{ stdout: string; events: string }> {
  return {
    stdout: await readFile(join(GOLDEN, "terminal", `${name}.txt`), "utf8"),
    events: await readFile(join(GOLDEN, `${name}.events.jsonl`), "utf8"),
  };
}

describe("a bundled example's run on a starved machine", () => {
  it("is no run of any golden example", async () => {
    const names = (await readdir(join(GOLDEN, "terminal"))).map((file) => file.replace(/\.txt$/, ""));
    expect(names.length).toBeGreaterThanOrEqual(14);
    for (const name of names) {
      const { stdout, events } = await golden(name);
      expect({ name, starved: starvedRun(stdout, events) }).toEqual({ name, starved: false });
    }
  });

  it("is a run where the agent timed out on an answer no latency fault delayed", async () => {
    // As a loaded machine printed it: the retry after the delayed answer timed out as well.
    const { stdout, events } = await golden("api_latency_recovery");
    const starved = stdout.replace(
      "[demo-agent OUT] Refreshed customer 123 on attempt 2\n",
      "[demo-agent OUT] Attempt 2 failed: TimeoutError\n[demo-agent OUT] Refreshed customer 123 on attempt 3\n",
    );
    expect(starved).not.toBe(stdout);
    expect(starvedRun(starved, events)).toBe(true);

    const noFault = await golden("no_fault");
    const timedOut = noFault.stdout.replace(
      "[demo-agent OUT] Loaded customer 123\n",
      "[demo-agent OUT] Attempt 1 failed: TimeoutError\n[demo-agent OUT] Loaded customer 123\n",
    );
    expect(timedOut).not.toBe(noFault.stdout);
    expect(starvedRun(timedOut, noFault.events)).toBe(true);
  });
});
