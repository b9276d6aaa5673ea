import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { renderCtrf } from "../../src/reporters/ctrf/ctrf.js";
import { hostileView, trialsView } from "./views.js";

const require = createRequire(import.meta.url);
const schemaPath = join(require.resolve("ctrf").replace(/index\.c?js$/, ""), "ctrf-schema-0.0.json");
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
}

describe("CTRF", () => {
  it("is valid against the JSON Schema shipped by the ctrf package", () => {
    const validate = validator();
    const document = JSON.parse(renderCtrf(hostileView()));
    const valid = validate(document);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("is rejected by that schema when a required key is missing (the check can fail)", () => {
    const validate = validator();
    const document = JSON.parse(renderCtrf(hostileView()));
    delete document.results.summary.stop;
    expect(validate(document)).toBe(false);
  });

  it("maps results, messages and extras as docs/suites.md says", () => {
    const document = JSON.parse(renderCtrf(hostileView()));
    expect(document).toMatchObject({ reportFormat: "CTRF", specVersion: "0.0.0" });
    expect(document.results.tool.name).toBe("agentchaos");
    expect(document.results.summary).toMatchObject({
      tests: 7,
      passed: 3,
      failed: 4,
      pending: 0,
      skipped: 0,
      other: 0,
    });
    expect(document.results.summary.stop - document.results.summary.start).toBe(10_500);
    const [recovered, failed] = document.results.tests;
    expect(recovered).toMatchObject({
      status: "passed",
      rawStatus: "RECOVERED",
      message: "RECOVERY_OBSERVED",
      duration: 1000,
    });
    expect(failed).toMatchObject({
      status: "failed",
      rawStatus: "FAILED",
      message: expect.stringMatching(/^RECOVERY_NOT_OBSERVED\ndiagnostic for /),
      extra: { result: "FAILED", reason_code: "RECOVERY_NOT_OBSERVED", run_folder: "run-1" },
    });
    expect(failed.filePath).toBe(hostileView().document.entries[1]?.path);
  });

  it("marks scenarios run with trials flaky with N - 1 retries, failed below the minimum pass rate, valid against the schema", () => {
    const validate = validator();
    const document = JSON.parse(renderCtrf(trialsView()));
    expect(validate(document)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(document.results.summary).toMatchObject({ tests: 3, passed: 1, failed: 2, flaky: 1 });
    const [flaky, stable] = document.results.tests;
    expect(flaky).toMatchObject({ status: "failed", flaky: true, retries: 4, rawStatus: "FAILED" });
    expect(flaky.extra.trials).toEqual({
      trials: 5,
      passed: 3,
      pass_rate: 0.6,
      wilson_95: [0.2307, 0.8824],
      class: "flaky",
      min_pass_rate: 1,
    });
    expect(stable).toMatchObject({ status: "passed", flaky: false, retries: 1 });
    document.results.tests[0].retries = -1;
    expect(validate(document)).toBe(false);
  });

  it("leaves flaky and retries out of a suite without trials", () => {
    const document = JSON.parse(renderCtrf(hostileView()));
    expect(document.results.summary).not.toHaveProperty("flaky");
    expect(document.results.tests[0]).not.toHaveProperty("retries");
  });
});
