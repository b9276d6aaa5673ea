import type { AgentChaosEvent } from "../events/types.js";
import { terminalSafe } from "../terminal-text.js";

/** Whether live output may use colour: stdout is a terminal and NO_COLOR is unset. */
export function useColour(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

const COLOURS = { TOOL_CALL: 36, CHAOS: 35, TOOL_FAILURE: 31, RETRY: 33, SUCCESS: 32 } as const;
type Label = keyof typeof COLOURS;

/** `elapsed_ms` in seconds with three decimals, zero-padded to eight characters (`0000.183`). */
export function formatElapsed(elapsedMs: number): string {
  return (elapsedMs / 1000).toFixed(3).padStart(8, "0");
}

function line(event: AgentChaosEvent, label: Label, detail: string, colour: boolean): string {
  const padded = label.padEnd(15, " ");
  const shown = colour ? `\u001b[${COLOURS[label]}m${padded}\u001b[0m` : padded;
  return `${formatElapsed(event.elapsed_ms)}  ${shown}${detail}\n`;
}

/** The live terminal line for an operation event (run.md), or null for events that have none. */
export function formatLiveLine(event: AgentChaosEvent, colour: boolean): string | null {
  const payload = event.payload;
  switch (payload.kind) {
    case "OPERATION_OBSERVED":
      return line(event, "TOOL_CALL", terminalSafe(`${payload.method} ${payload.path}`), colour);
    case "FAULT_INJECTED":
      return line(event, "CHAOS", `${payload.fault_type} ${JSON.stringify(payload.parameters)}`, colour);
    case "OPERATION_FAILED":
      return line(event, "TOOL_FAILURE", payload.failure_kind, colour);
    case "RETRY_OBSERVED":
      return line(event, "RETRY", `attempt=${payload.attempt}`, colour);
    case "OPERATION_SUCCEEDED":
      return line(event, "SUCCESS", String(payload.status_code), colour);
    default:
      return null;
  }
}

/** The header printed before a run starts (names escaped: they come from the scenario file). */
export function formatHeader(scenarioName: string, workloadName: string): string {
  return `Agent Chaos\n\nExperiment: ${terminalSafe(scenarioName)}\nWorkload: ${terminalSafe(workloadName)}\n\nStarting experiment...\n\n`;
}
