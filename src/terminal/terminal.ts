import { verifyOutcomeOf, verifyWording } from "../analysis/truth.js";
import type { LegacyEvent } from "../events/legacy/types.js";
import { labelMethod, OperationOrdinals, operationLabel } from "../events/operation-label.js";
import type { AgentChaosEvent } from "../events/types.js";
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
  VERIFY: 34,
  CANARY: 31,
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
  event: LegacyEvent | AgentChaosEvent,
  label: Label,
  detail: string,
  colour: boolean,
  shownLabel: string = label,
): string {
  const padded = shownLabel.padEnd(15, " ");
  const shown = colour ? `\u001b[${COLOURS[label]}m${padded}\u001b[0m` : padded;
  return `${formatElapsed(event.elapsed_ms)}  ${shown}${detail}\n`;
}

/** The operation a schema-2 line names: its dependency and how a person reads the rest of it. */
interface NamedOperation {
  readonly dependency: string;
  /** The label without the dependency: `POST /v1/chat/completions #1`. */
  readonly name: string;
}

/**
 * Schema 2's live lines: every operation line is shown under its dependency's name with the
 * operation's label (see docs/explore.md), so model calls, MCP calls and HTTP tools read alike:
 *
 *     llm            POST /v1/chat/completions #1
 *     CHAOS          llm-503 http_error {"status_code":503} on llm POST /v1/chat/completions #1
 *     llm            POST /v1/chat/completions #1 failed: injected_http_error 503
 *     llm            POST /v1/chat/completions #2 retries #1 (attempt 2)
 *     llm            POST /v1/chat/completions #2 succeeded: 200
 *
 * It keeps the labels of the run's operations, so one formatter serves one run.
 */
export function liveLines(colour: boolean): (event: AgentChaosEvent) => string | null {
  const ordinals = new OperationOrdinals();
  const operations = new Map<string, NamedOperation>();
  const named = (operationId: string): NamedOperation =>
    operations.get(operationId) ?? { dependency: "", name: operationId };
  /** `llm POST /v1/chat/completions #1`: the operation with its dependency. */
  const fullName = (operationId: string): string => {
    const operation = named(operationId);
    return `${operation.dependency} ${operation.name}`;
  };
  const ordinal = (operationId: string): string => {
    const name = named(operationId).name;
    return name.slice(name.lastIndexOf(" ") + 1);
  };
  /** A line of text from outside Agent Chaos (escaped), under `shownLabel` when given. */
  const say = (event: AgentChaosEvent, kind: Label, detail: string, shownLabel?: string): string =>
    line(event, kind, terminalSafe(detail), colour, shownLabel);
  const operationLine = (
    event: AgentChaosEvent,
    kind: Label,
    operationId: string,
    detail: string,
  ): string => {
    const operation = named(operationId);
    return say(event, kind, `${operation.name}${detail}`, operation.dependency || kind);
  };
  return (event) => {
    const payload = event.payload;
    switch (payload.kind) {
      case "DEPENDENCY_STARTED":
        return say(event, "SETUP", `started (pid ${payload.pid})`, payload.dependency);
      case "DEPENDENCY_READY":
        return say(event, "SETUP", `ready (GET ${payload.readiness_path.split("?")[0]})`, payload.dependency);
      case "INJECTOR_STARTED":
        return payload.proxy_url === null
          ? null
          : say(event, "SETUP", `proxy ${payload.proxy_url}`, payload.dependency);
      case "RUN_ERROR":
        return say(event, "RUN_ERROR", `${payload.reason_code}: ${payload.message}`);
      case "REPLAY_STARTED": {
        const replaying = `replaying ${payload.cassette} (${payload.interactions} interactions)`;
        return say(event, "SETUP", replaying, payload.dependency);
      }
      case "OPERATION_OBSERVED": {
        if (!operations.has(payload.operation_id)) {
          const label = operationLabel({
            dependency: payload.dependency,
            method: labelMethod(payload),
            path: payload.path,
            k: ordinals.next(payload),
          });
          operations.set(payload.operation_id, {
            dependency: payload.dependency,
            name: label.slice(payload.dependency.length + 1),
          });
        }
        return operationLine(event, "TOOL_CALL", payload.operation_id, "");
      }
      case "FAULT_INJECTED": {
        const parameters = JSON.stringify(payload.parameters);
        const on = fullName(payload.operation_id);
        return say(event, "CHAOS", `${payload.fault_id} ${payload.fault_type} ${parameters} on ${on}`);
      }
      case "FAULT_NOT_APPLIED":
        return say(
          event,
          "NOT_APPLIED",
          `${payload.fault_id} ${payload.reason} on ${fullName(payload.operation_id)}`,
        );
      case "OPERATION_FAILED": {
        const status = payload.status_code === null ? "" : ` ${payload.status_code}`;
        return operationLine(
          event,
          "TOOL_FAILURE",
          payload.operation_id,
          ` failed: ${payload.failure_kind}${status}`,
        );
      }
      case "RETRY_OBSERVED": {
        const retries = ` retries ${ordinal(payload.retry_of_operation_id)} (attempt ${payload.attempt})`;
        return operationLine(event, "RETRY", payload.operation_id, retries);
      }
      case "OPERATION_SUCCEEDED": {
        const status = payload.status_code === null ? "ok" : String(payload.status_code);
        const closed = payload.closed_by_client
          ? ` (stream closed by the workload after ${payload.relayed_events ?? 0} event${payload.relayed_events === 1 ? "" : "s"})`
          : "";
        return operationLine(event, "SUCCESS", payload.operation_id, ` succeeded: ${status}${closed}`);
      }
      case "VERIFY_COMPLETED":
        return say(event, "VERIFY", verifyWording(verifyOutcomeOf(payload)));
      case "CANARY_SEEN": {
        const where =
          payload.operation_id === null
            ? payload.sink
            : `${payload.sink} (${fullName(payload.operation_id)})`;
        return say(event, "CANARY", `${payload.fault_id} canary reached ${where}`);
      }
      default:
        return null;
    }
  };
}

/**
 * Schema 1's live terminal line for an operation event or a RUN_ERROR, or null for events that
 * have none (schema 2's lines come from `liveLines`).
 */
export function formatLiveLine(event: LegacyEvent, colour: boolean): string | null {
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
