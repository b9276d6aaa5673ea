import type { AgentChaosEvent } from "../events/types.js";
import type { AgentChaosEventV2 } from "../events/types-v2.js";
import { terminalSafe } from "../support/terminal-text.js";

/** Whether live output may use colour: stdout is a terminal and NO_COLOR is unset. */
export function useColour(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

const COLOURS = {
  TOOL_CALL: 36,
  CHAOS: 35,
  NOT_APPLIED: 35,
  SETUP: 34,
  RUN_ERROR: 31,
  TOOL_FAILURE: 31,
  RETRY: 33,
  SUCCESS: 32,
} as const;
type Label = keyof typeof COLOURS;

/** `45s`, `3m05s`, `1h02m`. */
export function formatEta(ms: number): string {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m${String(total % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** `elapsed_ms` in seconds with three decimals, zero-padded to eight characters (`0000.183`). */
export function formatElapsed(elapsedMs: number): string {
  return (elapsedMs / 1000).toFixed(3).padStart(8, "0");
}

/** One live line; `shownLabel` replaces the label's text (schema 2 shows the dependency name). */
function line(
  event: AgentChaosEvent | AgentChaosEventV2,
  label: Label,
  detail: string,
  colour: boolean,
  shownLabel: string = label,
): string {
  const padded = shownLabel.padEnd(15, " ");
  const shown = colour ? `\u001b[${COLOURS[label]}m${padded}\u001b[0m` : padded;
  return `${formatElapsed(event.elapsed_ms)}  ${shown}${detail}\n`;
}

/**
 * Schema 2's live lines: an operation is shown under its dependency's name with its protocol's
 * own words (`llm  POST /v1/chat/completions`, `notes  tools/call add_note`); injections name
 * the fault id.
 */
function formatLiveLineV2(event: AgentChaosEventV2, colour: boolean): string | null {
  const payload = event.payload;
  switch (payload.kind) {
    case "DEPENDENCY_STARTED":
      return line(event, "SETUP", `started (pid ${payload.pid})`, colour, payload.dependency);
    case "DEPENDENCY_READY":
      return line(
        event,
        "SETUP",
        terminalSafe(`ready (GET ${payload.readiness_path.split("?")[0]})`),
        colour,
        payload.dependency,
      );
    case "INJECTOR_STARTED":
      return payload.proxy_url === null
        ? null
        : line(event, "SETUP", `proxy ${payload.proxy_url}`, colour, payload.dependency);
    case "RUN_ERROR":
      return line(event, "RUN_ERROR", terminalSafe(`${payload.reason_code}: ${payload.message}`), colour);
    case "OPERATION_OBSERVED": {
      const what = payload.path === "" ? payload.method : `${payload.method} ${payload.path}`;
      return line(event, "TOOL_CALL", terminalSafe(what), colour, payload.dependency);
    }
    case "FAULT_INJECTED":
      return line(
        event,
        "CHAOS",
        `${payload.fault_id} ${payload.fault_type} ${JSON.stringify(payload.parameters)}`,
        colour,
      );
    case "FAULT_NOT_APPLIED":
      return line(event, "NOT_APPLIED", `${payload.fault_id} ${payload.reason}`, colour);
    case "OPERATION_FAILED":
      return line(event, "TOOL_FAILURE", payload.failure_kind, colour);
    case "RETRY_OBSERVED":
      return line(event, "RETRY", `attempt=${payload.attempt}`, colour);
    case "OPERATION_SUCCEEDED": {
      const status = payload.status_code === null ? "ok" : String(payload.status_code);
      const closed = payload.closed_by_client
        ? ` (stream closed by the workload after ${payload.relayed_events ?? 0} event${payload.relayed_events === 1 ? "" : "s"})`
        : "";
      return line(event, "SUCCESS", `${status}${closed}`, colour);
    }
    default:
      return null;
  }
}

/** The live terminal line for an operation event (docs/cli.md) or a RUN_ERROR, or null for events that have none. */
export function formatLiveLine(event: AgentChaosEvent | AgentChaosEventV2, colour: boolean): string | null {
  if (event.schema_version === 2) return formatLiveLineV2(event, colour);
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
    case "RUN_ERROR":
      // Not in the Python tool's lines (docs/cli.md): a run with a RUN_ERROR has failed, and the reason belongs on the
      // terminal; a run without one prints exactly the schema-1 lines.
      return line(event, "RUN_ERROR", `${payload.reason_code}: ${payload.message}`, colour);
    default:
      return null;
  }
}

/** The header printed before a run starts (names escaped: they come from the scenario file). */
export function formatHeader(scenarioName: string, workloadName: string): string {
  return `Agent Chaos\n\nExperiment: ${terminalSafe(scenarioName)}\nWorkload: ${terminalSafe(workloadName)}\n\nStarting experiment...\n\n`;
}
