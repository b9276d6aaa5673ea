import type { CliIo } from "../support/cli-io.js";

/** A command that reads its own arguments (its options are its own business). */
export type RawCommand = (args: readonly string[], io: CliIo) => Promise<number>;

/**
 * The commands that read their own arguments, each loaded only when it runs. The `agentchaos`
 * executable starts them without loading the rest of the CLI: `fake-llm` is started as a
 * dependency by many scenarios, so its start-up is kept close to Node's own
 * (docs/performance.md#fourth-pass-the-fake-model-servers-start).
 */
const RAW_COMMANDS: Readonly<Record<string, RawCommand>> = {
  "fake-llm": async (args, io) => (await import("./commands/fake-llm.js")).fakeLlmCommand(args, io),
  "mcp-shim": async (args, io) => (await import("../mcp/shim/command.js")).mcpShimCommand(args, io),
};

/** The raw command called `name`, if there is one. */
export function rawCommand(name: string | undefined): RawCommand | undefined {
  return name !== undefined && Object.hasOwn(RAW_COMMANDS, name) ? RAW_COMMANDS[name] : undefined;
}
