/**
 * Answers `mcp_latency` holds in the shim until the run says to hand them over. Each stays
 * known by its request's id, so that the agent's `notifications/cancelled` during the wait still
 * finds it: the answer is then dropped, never relayed (docs/mcp.md, operations and evidence).
 */
export class HeldAnswers {
  readonly #byKey = new Map<number, { readonly line: Buffer; readonly idKey: string }>();

  hold(key: number, idKey: string, line: Buffer): void {
    this.#byKey.set(key, { line, idKey });
  }

  /** The held answer of request `key`, no longer held; undefined when there is none. */
  take(key: number): Buffer | undefined {
    const held = this.#byKey.get(key);
    this.#byKey.delete(key);
    return held?.line;
  }

  /** The request key of the answer held for JSON-RPC id `idKey`, if any. */
  keyOf(idKey: string): number | undefined {
    for (const [key, held] of this.#byKey) if (held.idKey === idKey) return key;
    return undefined;
  }
}
