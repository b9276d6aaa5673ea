/**
 * The shim's part in corruption faults (docs/mcp.md): it rewrites a corrupted answer line before
 * the agent reads it, and looks for watched canaries in the agent's request lines. The values
 * come from the run over the private channel; nothing here is written anywhere but to the agent.
 */
import type { CanaryType } from "../../faults/corruption/canary.js";
import { corruptJson } from "../../faults/corruption/corrupt-json.js";
import { lineText } from "../lines.js";
import type { Decision, WatchedCanary } from "../stdio/channel.js";

export type CorruptOrder = NonNullable<Extract<Decision, { action: "forward" }>["corrupt"]>;

const NEWLINE = 0x0a;

/**
 * The answer line with the value at the order's tokens replaced, and what happened: the
 * replaced value's type, or why nothing was replaced (then the line is returned as it came).
 */
export function corruptLine(
  line: Buffer,
  order: CorruptOrder,
): { line: Buffer; outcome: CanaryType | "pointer_not_found" | "not_json" } {
  const corrupted = corruptJson(lineText(line), order.tokens, { text: order.text, integer: order.integer });
  if (corrupted.kind !== "corrupted") return { line, outcome: corrupted.kind };
  const ending = line[line.length - 1] === NEWLINE ? (line[line.length - 2] === 0x0d ? "\r\n" : "\n") : "";
  return { line: Buffer.from(corrupted.text + ending, "utf8"), outcome: corrupted.type };
}

/** The canaries a sink dependency's shim looks for in request lines. */
export class LineCanaries {
  #watched: { readonly faultId: string; readonly literals: readonly Buffer[] }[] = [];

  add(canaries: readonly WatchedCanary[]): void {
    for (const canary of canaries) {
      if (typeof canary?.faultId !== "string" || !Array.isArray(canary.literals)) continue;
      if (this.#watched.some((watched) => watched.faultId === canary.faultId)) continue;
      const literals = canary.literals.filter((literal) => typeof literal === "string" && literal !== "");
      this.#watched.push({
        faultId: canary.faultId,
        literals: literals.map((text) => Buffer.from(text, "utf8")),
      });
    }
  }

  /** The faults whose canary the line holds (each literal found with one native search). */
  seenIn(line: Buffer): string[] {
    if (this.#watched.length === 0) return [];
    return this.#watched
      .filter((watched) => watched.literals.some((literal) => line.indexOf(literal) >= 0))
      .map((watched) => watched.faultId);
  }
}
