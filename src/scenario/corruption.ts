/**
 * The keys of the corruption faults, `http_corrupt` and `mcp_corrupt_result` (docs/faults.md,
 * corruption faults): an RFC 6901 JSON pointer and the sinks the canary must not reach.
 */
import * as z from "zod";
import { expecting, matching } from "./fields.js";
import type { CorruptionFault } from "./types.js";

export const CORRUPTION_TYPES: ReadonlySet<string> = new Set<CorruptionFault["type"]>([
  "http_corrupt",
  "mcp_corrupt_result",
]);

/** The sink that stands for the workload's standard output. */
export const STDOUT_SINK = "stdout";

/** RFC 6901: empty (the whole document) or `/`-separated tokens where `~` is only `~0` or `~1`. */
const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

const pointerKey = matching(
  POINTER,
  'an RFC 6901 JSON pointer (empty, or "/" tokens with ~ only as ~0 or ~1)',
);

export const corruptionKeys = {
  pointer: pointerKey,
  sinks: z
    .array(z.string({ error: expecting('"stdout" or a dependency name') }), {
      error: expecting('a list of sinks ("stdout" or dependency names)'),
    })
    .optional(),
};

/** `http_corrupt`'s keys: its pointer may be left out (the first leaf value of the response). */
export const httpCorruptKeys = { ...corruptionKeys, pointer: pointerKey.optional() };

/**
 * Issues of a corruption fault that need the scenario around it: each sink is `stdout` or a
 * dependency name; `expect: recover` has nothing to recover from. Paths are below the fault.
 */
export function corruptionIssues(
  raw: Record<string, unknown>,
  dependencyNames: readonly string[],
): { path: PropertyKey[]; message: string }[] {
  const issues: { path: PropertyKey[]; message: string }[] = [];
  if (raw.expect === "recover") {
    issues.push({
      path: ["expect"],
      message: `expected "handle" or "give_up": a ${String(raw.type)} fault answers with a success, so there is no failure to recover from`,
    });
  }
  if (Array.isArray(raw.sinks)) {
    raw.sinks.forEach((sink: unknown, index) => {
      if (typeof sink !== "string" || sink === STDOUT_SINK || dependencyNames.includes(sink)) return;
      issues.push({
        path: ["sinks", index],
        message: `expected "stdout" or the name of a dependency (${dependencyNames.join(", ")}), got ${JSON.stringify(sink)}`,
      });
    });
  }
  return issues;
}
