/**
 * The run's canaries and their sinks (docs/faults.md, canary sinks). A corruption fault arms its
 * canary when it replaced a value; from then on every line of the workload's standard output and
 * every request to a dependency named as a sink is scanned as it passes (the bytes already in
 * hand, each literal found with one native search), and the first sighting per fault and sink is
 * recorded as `CANARY_SEEN`. What is recorded is the fault, the sink and the operation: never the
 * canary, never the bytes around it.
 */
import type { CanarySeenPayload } from "../../events/addition-types.js";
import { STDOUT_SINK } from "../../scenario/corruption.js";
import type { CorruptionFault } from "../../scenario/types.js";
import { type CanaryType, type CanaryValues, canaryLiterals, canaryValues } from "./canary.js";

/** Where CANARY_SEEN is recorded: the run's recorder. */
export interface CanarySink {
  emit(payload: CanarySeenPayload): unknown;
}

interface Watched {
  readonly id: string;
  readonly sinks: ReadonlySet<string>;
  readonly values: CanaryValues;
  /** Null until the fault replaced a value; then the literals to look for. */
  literals: { readonly text: readonly string[]; readonly bytes: readonly Buffer[] } | null;
  readonly seenIn: Set<string>;
}

/** Whether a request's target or body holds one of an armed canary's literals. */
function holds(watched: Watched, target: string, body: Buffer | null): boolean {
  const literals = watched.literals as NonNullable<Watched["literals"]>;
  const inBody = body !== null && literals.bytes.some((literal) => body.indexOf(literal) >= 0);
  return inBody || literals.text.some((literal) => target.includes(literal));
}

/** A canary armed: what a sink elsewhere (an MCP stdio shim) is told to look for. */
type ArmedCanary = { faultId: string; sinks: ReadonlySet<string>; literals: readonly string[] };

export class CanaryBook {
  readonly #faults = new Map<string, Watched>();
  readonly #sink: CanarySink;
  /** Armed faults, for a quick "nothing to look for". */
  #armed: Watched[] = [];
  readonly #listeners: ((canary: ArmedCanary) => void)[] = [];

  constructor(runId: string, faults: readonly CorruptionFault[], sink: CanarySink) {
    this.#sink = sink;
    for (const fault of faults) {
      this.#faults.set(fault.id, {
        id: fault.id,
        sinks: new Set(fault.sinks),
        values: canaryValues(runId, fault.id),
        literals: null,
        seenIn: new Set(),
      });
    }
  }

  /** The canary values of a corruption fault (its executor writes the one of the value's type). */
  values(faultId: string): CanaryValues {
    const watched = this.#faults.get(faultId);
    if (watched === undefined) throw new Error(`no corruption fault ${faultId}`);
    return watched.values;
  }

  /** The fault replaced a value of `type`: its sinks are watched from now on. */
  arm(faultId: string, type: CanaryType): void {
    const watched = this.#faults.get(faultId);
    if (watched === undefined || watched.literals !== null) return;
    const text = canaryLiterals(type, watched.values);
    watched.literals = { text, bytes: text.map((literal) => Buffer.from(literal, "utf8")) };
    if (text.length === 0) return;
    this.#armed = [...this.#armed, watched];
    for (const listener of this.#listeners) listener({ faultId, sinks: watched.sinks, literals: text });
  }

  /** Calls `listener` for each canary armed from now on (an MCP stdio host tells its shims). */
  onArm(listener: (canary: ArmedCanary) => void): void {
    this.#listeners.push(listener);
  }

  /** The armed canaries a request to `dependency` is scanned for (what a shim joining now is told). */
  watchedBy(dependency: string): { faultId: string; literals: readonly string[] }[] {
    return this.#armed
      .filter((watched) => watched.sinks.has(dependency))
      .map((watched) => ({ faultId: watched.id, literals: watched.literals?.text ?? [] }));
  }

  /** A request to `dependency` was scanned elsewhere (an MCP stdio shim) and held this fault's canary. */
  reportSeen(faultId: string, dependency: string, operationId: string): void {
    const watched = this.#faults.get(faultId);
    if (watched?.literals == null || !watched.sinks.has(dependency) || watched.seenIn.has(dependency)) return;
    this.#seen(watched, dependency, operationId);
  }

  /**
   * A request the agent sent to `dependency`: its raw target (path and query) and body, scanned
   * once each per armed canary. Call it right after the operation was observed.
   */
  scanRequest(dependency: string, operationId: string, target: string, body: Buffer | null): void {
    for (const watched of this.#armed) {
      if (!watched.sinks.has(dependency) || watched.seenIn.has(dependency)) continue;
      if (holds(watched, target, body)) this.#seen(watched, dependency, operationId);
    }
  }

  /** Whether a request to `dependency` (target and body) holds a canary armed for it, seen before or not. */
  carries(dependency: string, target: string, body: Buffer | null): boolean {
    return this.#armed.some((watched) => watched.sinks.has(dependency) && holds(watched, target, body));
  }

  /** One line (or piece of a long line) of the workload's standard output. */
  scanStdout(line: string): void {
    for (const watched of this.#armed) {
      if (!watched.sinks.has(STDOUT_SINK) || watched.seenIn.has(STDOUT_SINK)) continue;
      const literals = watched.literals as NonNullable<Watched["literals"]>;
      if (literals.text.some((literal) => line.includes(literal))) this.#seen(watched, STDOUT_SINK, null);
    }
  }

  /** Whether any canary was armed (a run without one has nothing to mask). */
  get armed(): boolean {
    return this.#armed.length > 0;
  }

  /** The text with every armed canary literal shown as `[canary <fault id>]` (what logs and the terminal keep). */
  mask(text: string): string {
    let masked = text;
    for (const { literal, mask } of this.masks()) {
      if (masked.includes(literal)) masked = masked.replaceAll(literal, mask);
    }
    return masked;
  }

  /** Each armed canary literal and what it is shown as, in the order they are replaced. */
  masks(): { literal: string; mask: string }[] {
    return this.#armed.flatMap((watched) =>
      (watched.literals?.text ?? []).map((literal) => ({ literal, mask: `[canary ${watched.id}]` })),
    );
  }

  #seen(watched: Watched, sink: string, operationId: string | null): void {
    watched.seenIn.add(sink);
    this.#sink.emit({ kind: "CANARY_SEEN", fault_id: watched.id, sink, operation_id: operationId });
  }
}
