import type { Operation, OperationLedger } from "../events/operation.js";

/**
 * The agent's `notifications/cancelled` for its own requests (docs/mcp.md, cancellation): each
 * names an operation by its JSON-RPC id; a run that writes events schema 3 records it as
 * MCP_CANCELLED, and the operation, if still open, fails `client_cancelled`. An answer that
 * arrives for a cancelled operation is not relayed (the transports ask `cancelled`).
 */
export class Cancellations {
  readonly #ledger: OperationLedger;
  readonly #record: boolean;
  readonly #cancelled = new WeakSet<Operation>();

  /** `record`: whether MCP_CANCELLED is written (runs that write events schema 3). */
  constructor(ledger: OperationLedger, record: boolean) {
    this.#ledger = ledger;
    this.#record = record;
  }

  /** The agent cancelled `operation` (`session`: the stdio session number, null over HTTP). */
  cancel(operation: Operation, session: number | null): void {
    if (this.#cancelled.has(operation)) return;
    this.#cancelled.add(operation);
    if (this.#record) {
      const dependency = this.#ledger.dependency;
      this.#ledger.emit({ kind: "MCP_CANCELLED", dependency, session, operation_id: operation.id });
    }
    operation.fail("client_cancelled", null);
  }

  cancelled(operation: Operation): boolean {
    return this.#cancelled.has(operation);
  }
}
