import { describe, expect, it } from "vitest";
import { OperationLedger } from "../../src/events/operation.js";
import { type SelectableFault, selectOperation } from "../../src/faults/selection.js";

/** Every recorded event kind and every twin ended, in the order they happened. */
function timeline() {
  const steps: string[] = [];
  const ledger = new OperationLedger({ emit: (payload) => steps.push(payload.kind) }, "api");
  const twins = { supersede: (fingerprint: string) => steps.push(`supersede ${fingerprint}`) };
  return { steps, ledger, twins };
}

function begin(ledger: OperationLedger, fingerprint = "f") {
  return ledger.begin(
    { method: "POST", path: "/x", queryHash: null, bodyHash: "b", fingerprint, protocol: "http" },
    0,
  );
}

/** A fault whose target matches when `matches`, selecting when `selects`; it counts each decision. */
function fault(id: string, matches: boolean, selects: boolean) {
  const counted: string[] = [];
  const selectable: SelectableFault = {
    id,
    type: "http_error",
    parameters: { status_code: 503 },
    matches: () => matches,
    decide: () => {
      counted.push(id);
      return selects;
    },
    countTokens: null,
  };
  return { selectable, counted };
}

const itself = (candidate: SelectableFault) => candidate;

describe("the selection section every path calls", () => {
  it("observes, ends a twin, links the retry, then counts and decides, in that order", () => {
    const { steps, ledger, twins } = timeline();
    const first = begin(ledger);
    const failing = fault("a", true, true);
    expect(selectOperation(first, [failing.selectable], itself, twins).chosen).toBe(failing.selectable);
    first.fail("injected_http_error", 503);
    steps.length = 0;

    const retry = begin(ledger);
    const acting = fault("a", true, true);
    const outvoted = fault("b", true, true);
    const selection = selectOperation(retry, [acting.selectable, outvoted.selectable], itself, twins);

    expect(selection.chosen).toBe(acting.selectable);
    expect(steps).toEqual([
      "OPERATION_OBSERVED",
      "supersede f",
      "RETRY_OBSERVED",
      "FAULT_INJECTED",
      "FAULT_NOT_APPLIED",
    ]);
  });

  it("counts only the faults whose target matches", () => {
    const { ledger, twins } = timeline();
    const elsewhere = fault("a", false, true);
    const here = fault("b", true, false);
    const selection = selectOperation(begin(ledger), [elsewhere.selectable, here.selectable], itself, twins);
    expect(selection.chosen).toBeNull();
    expect(elsewhere.counted).toEqual([]);
    expect(here.counted).toEqual(["b"]);
  });

  it("with no candidate (the fast lane) still observes, ends a twin and links the retry", () => {
    const { steps, ledger, twins } = timeline();
    const first = begin(ledger, "g");
    selectOperation(first, [fault("a", true, true).selectable], itself, twins);
    first.fail("injected_http_error", 503);
    steps.length = 0;

    const selection = selectOperation(begin(ledger, "g"), [], itself, twins);

    expect(selection).toEqual({ chosen: null, tokenQuotas: [] });
    expect(steps).toEqual(["OPERATION_OBSERVED", "supersede g", "RETRY_OBSERVED"]);
  });
});
