import type { Operation } from "../events/operation.js";
import type { ArmedFault } from "../faults/registry.js";
import { type Superseding, selectOperation } from "../faults/selection.js";
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

const faultOf = (armed: ArmedMcpLayerFault) => armed.fault;

/**
 * The selection section (`selectOperation`) for one MCP operation: `twins` ends a delayed (or
 * held) twin. MCP answers carry no model usage: a token quota here never counts anything.
 */
export function selectFault(
  operation: Operation,
  faults: readonly ArmedMcpLayerFault[],
  twins: Superseding,
): ArmedMcpLayerFault | null {
  return selectOperation(operation, faults, faultOf, twins).chosen;
}
