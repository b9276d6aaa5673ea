import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReportError, type ReportErrorCode } from "../../src/report/errors.js";
import { readReport } from "../../src/report/reader.js";
import { fixtureNames, fixtureObject, VALID } from "./fixtures.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "agentchaos-report-reader-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(path: string): Promise<ReportError> {
  const error = await readReport(path).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ReportError)) throw new Error(`expected a ReportError, got ${String(error)}`);
  return error;
}

async function codeOfText(text: string | Uint8Array): Promise<ReportErrorCode> {
  const path = join(dir, "report.json");
  await writeFile(path, text);
  return (await failure(path)).code;
}

type JsonObject = Record<string, unknown>;

/**
 * A valid fixture (schema 2 unless `base` says otherwise) with some values changed, as JSON
 * text. Keys of `changes` are dotted paths (`recovery.evidence.0.recovery_latency_ms`); the
 * value `undefined` removes the key.
 */
function variant(changes: JsonObject, base = "v2-recovered-schedule"): string {
  const report = fixtureObject(VALID, base);
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    const parent = keys.reduce((node, key) => node[key] as JsonObject, report);
    if (value === undefined) Reflect.deleteProperty(parent, last);
    else parent[last] = value;
  }
  return JSON.stringify(report, null, 2);
}

describe("readReport", () => {
  it.each(fixtureNames(VALID))("accepts the valid fixture %s and returns its resolved path", async (name) => {
    const path = join(VALID, `${name}.json`);
    const { report, path: reportPath } = await readReport(path);
    expect(reportPath).toBe(await realpath(path));
    expect(report.schema_version).toBe(Number(name.slice(1, 2)));
  });

  it("reads report.json inside a run folder", async () => {
    await writeFile(join(dir, "report.json"), variant({}));
    const { report, path } = await readReport(dir);
    expect(path).toBe(join(dir, "report.json"));
    expect(report.run_id).toBe("20261129T183821Z-1a2b3c4d");
  });

  it("reads any file path as a report whatever its name, and resolves symbolic links", async () => {
    await writeFile(join(dir, "saved-result.txt"), variant({}));
    await symlink(join(dir, "saved-result.txt"), join(dir, "link.json"));
    expect((await readReport(join(dir, "link.json"))).path).toBe(join(dir, "saved-result.txt"));
  });

  it("keeps a seed beyond 2^53 exact", async () => {
    const { report } = await readReport(join(VALID, "v3-recovered-max-seed.json"));
    expect(report.schema_version === 3 && report.fault.trigger?.kind === "seeded_probability").toBe(true);
    if (report.schema_version === 3 && report.fault.trigger?.kind === "seeded_probability") {
      expect(report.fault.trigger.seed).toBe(18446744073709551615n);
      expect(report.fault.trigger.probability).toBe(0.5);
    }
  });

  it("reports a missing file, and a folder without report.json, as not found", async () => {
    expect((await failure(join(dir, "absent.json"))).code).toBe("REPORT_NOT_FOUND");
    expect((await failure(dir)).code).toBe("REPORT_NOT_FOUND");
    expect((await failure(dir)).message).toBe("Report not found.");
  });

  it("reports a folder where report.json should be, or a file used as a folder, as unreadable", async () => {
    await mkdir(join(dir, "report.json"));
    expect((await failure(dir)).code).toBe("REPORT_UNREADABLE");
    await writeFile(join(dir, "plain.txt"), "x");
    const error = await failure(join(dir, "plain.txt", "report.json"));
    expect(error.code).toBe("REPORT_UNREADABLE");
    expect(error.message).toBe("Report is unreadable.");
  });

  it("reports text that is not JSON, or not UTF-8, as malformed JSON", async () => {
    expect(await codeOfText("")).toBe("REPORT_MALFORMED_JSON");
    expect(await codeOfText("{ not json")).toBe("REPORT_MALFORMED_JSON");
    expect(await codeOfText('{"schema_version": 2} trailing')).toBe("REPORT_MALFORMED_JSON");
    expect(await codeOfText(new Uint8Array([0x7b, 0xff, 0x7d]))).toBe("REPORT_MALFORMED_JSON");
  });

  it("reports a JSON value that is not an object as an invalid schema without a key path", async () => {
    for (const text of ["[]", "[1, 2]", "null", "2", '"report"']) {
      await writeFile(join(dir, "report.json"), text);
      const error = await failure(join(dir, "report.json"));
      expect(error.code).toBe("REPORT_SCHEMA_INVALID");
      expect(error.keyPath).toBeNull();
      expect(error.message).toBe("Report schema is invalid.");
    }
  });

  it("reports a missing or unknown schema_version as unsupported", async () => {
    const versions = [undefined, 0, 6, "2", 2.5, true, null];
    for (const version of versions) {
      const text = variant({ schema_version: version });
      expect(await codeOfText(text)).toBe("REPORT_SCHEMA_UNSUPPORTED");
    }
    expect(await codeOfText(variant({}).replace('"schema_version": 2', '"schema_version": 2.0'))).toBe(
      "REPORT_SCHEMA_UNSUPPORTED",
    );
  });

  it.each<[string, JsonObject, string]>([
    ["an unknown top-level key", { extra: 1 }, "extra"],
    ["an unknown nested key", { "workload.pid": 1 }, "workload.pid"],
    ["a missing key", { diagnostics: undefined }, "diagnostics"],
    ["a string count", { faults_injected: "2" }, "faults_injected"],
    ["null where null is not allowed", { run_id: null }, "run_id"],
    ["a boolean where an integer belongs", { retries_observed: true }, "retries_observed"],
    [
      "a fractional latency",
      { "recovery.evidence.0.recovery_latency_ms": 5.5 },
      "recovery.evidence[0].recovery_latency_ms",
    ],
    ["an unknown result", { result: "SKIPPED" }, "result"],
    ["a non-string diagnostic", { diagnostics: ["ok", 3] }, "diagnostics[1]"],
    [
      "a schedule entry that is a string",
      { "fault.scheduled_occurrences": [2, "4"] },
      "fault.scheduled_occurrences[1]",
    ],
    [
      "a schema-3 fault in a schema-2 report",
      { fault: { configured: false, type: null, injected: false, trigger: null } },
      "fault.trigger",
    ],
    [
      "a schema-1 recovery in a schema-2 report",
      {
        recovery: {
          observed: true,
          failed_operation_id: null,
          retry_operation_id: null,
          recovery_latency_ms: null,
        },
      },
      "recovery.observed",
    ],
    ["null for a log that must be a string", { "artifacts.stdout": null }, "artifacts.stdout"],
  ])("rejects %s with its key path", async (_title, changes, keyPath) => {
    await writeFile(join(dir, "report.json"), variant(changes));
    const error = await failure(join(dir, "report.json"));
    expect(error.code).toBe("REPORT_SCHEMA_INVALID");
    expect(error.keyPath).toBe(keyPath);
    expect(error.message).toBe(`Report schema is invalid. Offending key: ${keyPath}`);
  });

  it("rejects integers written as decimals or exponents, and integers beyond the safe range", async () => {
    const text = variant({});
    for (const written of [
      '"duration_ms": 1434.0',
      '"duration_ms": 1.434e3',
      '"duration_ms": 9007199254740993',
    ]) {
      expect(await codeOfText(text.replace('"duration_ms": 1434', written))).toBe("REPORT_SCHEMA_INVALID");
    }
  });

  it("does not echo an unknown key that is not a plain name", async () => {
    await writeFile(join(dir, "report.json"), variant({ "workload.\u001b[31mred": 1 }));
    const error = await failure(join(dir, "report.json"));
    expect(error.keyPath).toBe("workload");
  });

  it("rejects a schema-3 trigger of an unknown kind, and a seed written as a string", async () => {
    const base = "v3-recovered-probability";
    const unknownKind = variant({ "fault.trigger.kind": "random" }, base);
    await writeFile(join(dir, "report.json"), unknownKind);
    expect((await failure(join(dir, "report.json"))).keyPath).toBe("fault.trigger.kind");
    const quotedSeed = variant({ "fault.trigger.seed": "10" }, base);
    await writeFile(join(dir, "report.json"), quotedSeed);
    expect((await failure(join(dir, "report.json"))).keyPath).toBe("fault.trigger.seed");
  });

  it("accepts a schema-3 probability written in exponent form or with trailing zeros", async () => {
    const base = "v3-passed-probability-tolerated";
    const text = variant({}, base);
    for (const written of ['"probability": 5e-1', '"probability": 0.500000']) {
      await writeFile(join(dir, "report.json"), text.replace('"probability": 0.5', written));
      await expect(readReport(join(dir, "report.json"))).resolves.toBeTruthy();
    }
  });

  it("checks schema 1 for shape only", async () => {
    const text = variant({ duration_ms: -5, faults_injected: 9 }, "v1-recovered");
    await writeFile(join(dir, "report.json"), text);
    await expect(readReport(join(dir, "report.json"))).resolves.toBeTruthy();
    const badShape = variant({ "recovery.observed": "yes" }, "v1-recovered");
    await writeFile(join(dir, "report.json"), badShape);
    expect((await failure(join(dir, "report.json"))).keyPath).toBe("recovery.observed");
  });
});
