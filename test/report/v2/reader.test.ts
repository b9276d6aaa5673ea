import { parse } from "lossless-json";
import { describe, expect, it } from "vitest";
import { ReportError } from "../../../src/report/errors.js";
import { validateReport } from "../../../src/report/reader.js";
import { fixtureObject, VALID } from "../fixtures.js";

/** A fixture as plain JSON that a test edits freely. */
// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary JSON paths
type JsonEdit = Record<string, any>;

/** A valid v4 fixture as a plain object, changed by `edit`, then validated as the reader does. */
function validateVariant(name: string, edit: (report: JsonEdit) => void) {
  const report = fixtureObject(VALID, name) as JsonEdit;
  edit(report);
  // Through JSON text, so numbers become lossless numbers as the reader sees them.
  const read = validateReport(parse(JSON.stringify(report)));
  if (read.schema_version !== 4) throw new Error("expected a schema-4 report");
  return read;
}

function keyPathOf(name: string, edit: (report: JsonEdit) => void): string | null | undefined {
  try {
    validateVariant(name, edit);
  } catch (error) {
    expect(error).toBeInstanceOf(ReportError);
    expect((error as ReportError).code).toBe("REPORT_SCHEMA_INVALID");
    return (error as ReportError).keyPath;
  }
  return undefined;
}

const CHAIN = "v4-recovered-chain";

describe("the schema-4 shape", () => {
  it.each<[string, string, (r: JsonEdit) => void, string | null]>([
    [
      "a schema-2 `fault` key",
      CHAIN,
      (r) => {
        r.fault = null;
      },
      "fault",
    ],
    [
      "a missing `checks`",
      CHAIN,
      (r) => {
        delete r.checks;
      },
      "checks",
    ],
    [
      "a fault id outside the scenario grammar",
      CHAIN,
      (r) => {
        r.faults[0].id = "Crm 503";
      },
      "faults[0].id",
    ],
    [
      "an unknown fault type",
      CHAIN,
      (r) => {
        r.faults[0].type = "http_teleport";
      },
      "faults[0].type",
    ],
    [
      "an unknown expectation",
      CHAIN,
      (r) => {
        r.faults[0].expect = "pray";
      },
      "faults[0].expect",
    ],
    [
      "a target with both path and name",
      CHAIN,
      (r) => {
        r.faults[0].target.name = "x";
      },
      "faults[0].target.name",
    ],
    [
      "a parameter that is not an integer, string or boolean",
      CHAIN,
      (r) => {
        r.faults[0].parameters.status_code = 503.5;
      },
      "faults[0].parameters.status_code",
    ],
    [
      "a null parameter",
      CHAIN,
      (r) => {
        r.faults[0].parameters.status_code = null;
      },
      "faults[0].parameters.status_code",
    ],
    [
      "a null trigger",
      CHAIN,
      (r) => {
        r.faults[0].trigger = null;
      },
      "faults[0].trigger",
    ],
    [
      "an unknown recovery mode",
      CHAIN,
      (r) => {
        r.recovery.mode = "lifo";
      },
      "recovery.mode",
    ],
    [
      "a row without fault_id",
      CHAIN,
      (r) => {
        delete r.recovery.evidence[0].fault_id;
      },
      "recovery.evidence[0].fault_id",
    ],
    [
      "an unknown dependency type",
      CHAIN,
      (r) => {
        r.dependencies[0].type = "grpc";
      },
      "dependencies[0].type",
    ],
    [
      "a dependency name outside the grammar",
      CHAIN,
      (r) => {
        r.dependencies[0].name = "LLM";
      },
      "dependencies[0].name",
    ],
    [
      "an unknown check",
      CHAIN,
      (r) => {
        r.checks[0].name = "retry_budget";
      },
      "checks[0].name",
    ],
    [
      "an off check",
      CHAIN,
      (r) => {
        r.checks[0].mode = "off";
      },
      "checks[0].mode",
    ],
    [
      "a log entry for a badly named dependency",
      CHAIN,
      (r) => {
        r.artifacts.dependencies["Bad Name"] = { stdout: "a", stderr: "b" };
      },
      "artifacts.dependencies",
    ],
    [
      "schema 2's dependency log keys",
      CHAIN,
      (r) => {
        r.artifacts.dependency_stdout = null;
      },
      "artifacts.dependency_stdout",
    ],
  ])("rejects %s", (_, name, edit, keyPath) => {
    expect(keyPathOf(name, edit)).toBe(keyPath);
  });

  it("rejects findings that are not made of ids and integers of their check's shape", () => {
    const withFinding = "v4-failed-retry-after";
    expect(
      keyPathOf(withFinding, (r) => {
        r.checks[0].findings[0].body = "secret";
      }),
    ).toBe("checks[0].findings[0].body");
    expect(
      keyPathOf(withFinding, (r) => {
        r.checks[0].findings[0].gap_ms = "52";
      }),
    ).toBe("checks[0].findings[0].gap_ms");
    expect(
      keyPathOf(withFinding, (r) => {
        r.checks[0].findings[0].operation_id = "";
      }),
    ).toBe("checks[0].findings[0].operation_id");
    expect(
      keyPathOf(withFinding, (r) => {
        r.checks[0].findings[0] = 7;
      }),
    ).toBe("checks[0].findings[0]");
    // retry_storm has two shapes; a mix of them is neither.
    expect(
      keyPathOf("v4-recovered-probability-mcp", (r) => {
        r.checks[1].findings[0].operations = 3;
      }),
    ).toBe("checks[1].findings[0].operations");
  });
});

describe("the schema-4 consistency rules", () => {
  it("rejects a failed check that has no findings, and a passed one that has some", () => {
    expect(
      keyPathOf(CHAIN, (r) => {
        r.checks[0].passed = false;
      }),
    ).toBe("checks[0].passed");
    expect(
      keyPathOf("v4-recovered-probability-mcp", (r) => {
        r.checks[1].passed = true;
      }),
    ).toBe("checks[1].passed");
  });

  it("re-derives rule 18 from an enforced check, and ignores a reported one", () => {
    expect(
      keyPathOf("v4-failed-retry-after", (r) => {
        r.result = "RECOVERED";
        r.reason_code = "RECOVERY_OBSERVED";
      }),
    ).toBe("reason_code");
    const reported = validateVariant("v4-failed-retry-after", (r) => {
      r.checks[0].mode = "report";
      r.result = "RECOVERED";
      r.reason_code = "RECOVERY_OBSERVED";
      r.diagnostics = [];
    });
    expect(reported.reason_code).toBe("RECOVERY_OBSERVED");
  });

  it("accepts either reason where the report cannot tell a truncated row from another unresolved one", () => {
    const partial = "v4-failed-partial-response";
    expect(
      validateVariant(partial, (r) => {
        r.reason_code = "RECOVERY_NOT_OBSERVED";
      }).reason_code,
    ).toBe("RECOVERY_NOT_OBSERVED");
    expect(
      keyPathOf(partial, (r) => {
        r.faults[0].type = "http_stream_reset";
      }),
    ).toBe("reason_code");
  });

  it("accepts UNEXPECTED_RETRY only where a give_up row exists, and requires it for a resolved one", () => {
    const handled = "v4-passed-failure-handled";
    expect(
      keyPathOf(handled, (r) => {
        r.result = "FAILED";
        r.reason_code = "UNEXPECTED_RETRY";
      }),
    ).toBe("reason_code");
    const gaveUp = validateVariant(handled, (r) => {
      r.faults[0].expect = "give_up";
      r.result = "FAILED";
      r.reason_code = "UNEXPECTED_RETRY";
    });
    expect(gaveUp.reason_code).toBe("UNEXPECTED_RETRY");
    expect(
      keyPathOf("v4-failed-unexpected-retry", (r) => {
        r.result = "PASSED";
        r.reason_code = "FAILURE_HANDLED";
      }),
    ).toBe("reason_code");
  });

  it("requires schema 4 to resolve retry ids once per row only under fifo", () => {
    expect(validateVariant(CHAIN, () => {}).recovery.mode).toBe("chain");
    expect(
      keyPathOf(CHAIN, (r) => {
        r.recovery.mode = "fifo";
      }),
    ).toBe("recovery.evidence");
  });
});
