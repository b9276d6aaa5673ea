/**
 * Chaos tests next to your other tests: run a scenario through the library and assert the
 * verdict. `npx vitest run examples/vitest` runs this file (it is also part of `npm test`).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runExperiment } from "agent-chaos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let outputDir: string;

beforeAll(async () => {
  outputDir = await mkdtemp(join(tmpdir(), "agent-chaos-example-"));
});

afterAll(async () => {
  await rm(outputDir, { recursive: true, force: true });
});

describe("the demo agent under chaos", () => {
  it("recovers when the customer API answers a request with 503", async () => {
    const outcome = await runExperiment(join(import.meta.dirname, "api_503_recovery.yaml"), { outputDir });

    expect(outcome.result).toBe("RECOVERED");
    expect(outcome.reasonCode).toBe("RECOVERY_OBSERVED");
    expect(outcome.exitCode).toBe(0);
    expect(outcome.report.faults_injected).toBe(1);
  });
});
