/**
 * How a person reads an operation's name (see docs/explore.md): `<dependency> <METHOD> <path> #k`,
 * e.g. `llm POST /v1/chat/completions #1`, where k is the operation's ordinal among the run's
 * operations with the same dependency, protocol, method and path. An MCP operation's path is its
 * tool, resource or prompt name (`notes tools/call add_note #2`), and a method without a name
 * reads `notes initialize #1`. Every page, diagnostic and terminal line that names an operation
 * uses this one labelling; the ids stay in the JSON files.
 */

/** What names an operation for a person, before its ordinal is known. */
export interface OperationIdentity {
  readonly dependency: string;
  readonly protocol: "http" | "mcp";
  /** As recorded; HTTP methods are upper-cased when labelled (targets compare them case-insensitively). */
  readonly method: string;
  /** HTTP: the path without query; MCP: the target name (`""` for methods without one). */
  readonly path: string;
}

/** The method as labels and explore's points show it: upper-cased for HTTP, as sent for MCP. */
export function labelMethod(identity: Pick<OperationIdentity, "protocol" | "method">): string {
  return identity.protocol === "http" ? identity.method.toUpperCase() : identity.method;
}

/** `llm POST /v1/chat/completions #1`; without a path: `notes initialize #1`. */
export function operationLabel(operation: {
  readonly dependency: string;
  readonly method: string;
  readonly path: string;
  readonly k: number;
}): string {
  const path = operation.path === "" ? "" : ` ${operation.path}`;
  return `${operation.dependency} ${operation.method}${path} #${operation.k}`;
}

/** A label as diagnostics print it: control characters (an MCP name could hold one) shown as `?`. */
export function printableLabel(label: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point
  return label.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** Hands out the ordinal k of each operation in observation order. */
export class OperationOrdinals {
  readonly #counts = new Map<string, number>();

  /** The next ordinal of operations with this identity (1 for the first). */
  next(identity: OperationIdentity): number {
    const key = `${identity.dependency}\u0000${identity.protocol}\u0000${labelMethod(identity)}\u0000${identity.path}`;
    const k = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, k);
    return k;
  }
}

/**
 * The label of every observed operation, by operation id, given the observations in the order
 * they were recorded (an id observed twice keeps its first label).
 */
export function operationLabels(
  observed: Iterable<OperationIdentity & { readonly operationId: string }>,
): Map<string, string> {
  const ordinals = new OperationOrdinals();
  const labels = new Map<string, string>();
  for (const operation of observed) {
    if (labels.has(operation.operationId)) continue;
    const k = ordinals.next(operation);
    labels.set(
      operation.operationId,
      operationLabel({
        dependency: operation.dependency,
        method: labelMethod(operation),
        path: operation.path,
        k,
      }),
    );
  }
  return labels;
}
