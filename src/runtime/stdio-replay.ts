/**
 * How an `mcp_stdio` dependency with `replay` takes part in a run (docs/replay.md): recorded
 * through its shims, or served from its cassette.
 */
import { StdioCassetteServer, type StdioReplay } from "../mcp/stdio/cassette-lines.js";
import type { McpStdioDependency } from "../scenario/types.js";
import { announceReplay, mismatchReporter, type ReplayPlan } from "./replay-steps.js";
import type { StepContext } from "./step-context.js";

/** Served from its cassette (then REPLAY_STARTED is recorded), recorded, or null: live. */
export function stdioReplay(
  context: StepContext,
  plan: ReplayPlan | null,
  dependency: McpStdioDependency,
): StdioReplay | null {
  const replay = dependency.replay;
  if (plan === null || replay === undefined) return null;
  const builder = plan.recording.get(dependency.name);
  if (builder !== undefined) return { mode: "record", builder, redact: replay.redact };
  const cassette = plan.served.get(dependency.name);
  if (cassette === undefined) return null;
  const canaries = context.canaries ?? null;
  const report = mismatchReporter(context);
  const server = new StdioCassetteServer(
    cassette,
    (mismatch) => report({ ...mismatch, dependency: dependency.name }),
    (line) => canaries?.carries(dependency.name, "", Buffer.from(line, "utf8")) ?? false,
    replay.match,
  );
  announceReplay(context, dependency.name, replay, cassette);
  return { mode: "serve", server };
}
