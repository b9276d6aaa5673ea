import type { Operation } from "../events/operation.js";
import type { ArmedFault } from "../faults/registry.js";
import type { ArmedMcpFault } from "./faults/registry.js";

/** A fault that may act on an MCP operation: at the JSON-RPC layer, or (HTTP only) on its exchange. */
export type ArmedMcpLayerFault =
  | { readonly layer: "mcp"; readonly fault: ArmedMcpFault }
  | { readonly layer: "http"; readonly fault: ArmedFault };

/**
 * Operations delayed by `mcp_latency`, by fingerprint, from injection until their answer is
 * handed over. A request with the same fingerprint arriving meanwhile abandons the waiting one
 * (`client_timeout_inferred`, as `http_latency`); the new one is then its retry.
 */
export class LatencyWaits {
  readonly #byFingerprint = new Map<string, { operation: Operation; abandon: () => void }>();

  add(operation: Operation, abandon: () => void): void {
    this.#byFingerprint.set(operation.fingerprint, { operation, abandon });
  }

  remove(operation: Operation): void {
    if (this.#byFingerprint.get(operation.fingerprint)?.operation === operation) {
      this.#byFingerprint.delete(operation.fingerprint);
    }
  }

  supersede(fingerprint: string): void {
    const wait = this.#byFingerprint.get(fingerprint);
    if (wait === undefined) return;
    this.#byFingerprint.delete(fingerprint);
    if (!wait.operation.finished) wait.abandon();
  }
}

/**
 * The selection section for one MCP operation, in one tick (docs/triggers.md, Counting): observe →
 * abandon a delayed twin → retry link → every matching fault counts, the first selected acts,
 * later selections are recorded as not applied.
 */
export function selectFault(
  operation: Operation,
  faults: readonly ArmedMcpLayerFault[],
  supersede: (fingerprint: string) => void,
): ArmedMcpLayerFault | null {
  operation.observe();
  supersede(operation.fingerprint);
  operation.linkRetry();
  let chosen: ArmedMcpLayerFault | null = null;
  const outvoted: ArmedMcpLayerFault[] = [];
  for (const armed of faults) {
    if (!armed.fault.matches(operation.identity) || !armed.fault.decide()) continue;
    if (chosen === null) chosen = armed;
    else outvoted.push(armed);
  }
  const deferred = chosen?.fault.deferredInjection;
  if (chosen !== null && deferred !== undefined) operation.injectedLater(chosen.fault, deferred);
  else if (chosen !== null) operation.injected(chosen.fault);
  for (const armed of outvoted) operation.notApplied(armed.fault.id, "another_fault_acted");
  return chosen;
}
