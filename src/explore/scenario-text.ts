/**
 * A schema-2 scenario written back as scenario-file text (docs/scenario.md): what explore puts in
 * each run folder's `scenario.yaml` and in every replay. `parseScenario` of the text, with the
 * file placed in `baseDir`, gives the same scenario back (tested).
 */
import { Document, isMap, isScalar, isSeq, visit } from "yaml";
import { faultParameters, reportTarget } from "../report/v4/fault-parameters.js";
import type { ChecksConfig, CommandSpec, Dependency, Fault, Scenario, Trigger } from "../scenario/types.js";
import { slashRelative } from "../support/slash-path.js";

type Data = Record<string, unknown>;

/** `cwd` as a path relative to the file's folder (forward slashes), `.` for the folder itself. */
function cwdFrom(baseDir: string, cwd: string): string {
  return slashRelative(baseDir, cwd) || ".";
}

function command(baseDir: string, spec: CommandSpec): Data {
  return {
    command: [...spec.command],
    cwd: cwdFrom(baseDir, spec.cwd),
    ...(Object.keys(spec.env).length === 0 ? {} : { env: { ...spec.env } }),
  };
}

/** `replay` with its cassette relative to the file's folder (docs/replay.md), or nothing. */
function replayData(baseDir: string, dependency: Dependency): Data {
  const replay = dependency.replay;
  if (replay === undefined) return {};
  return {
    replay: {
      cassette: cwdFrom(baseDir, replay.cassette),
      match: [...replay.match],
      on_mismatch: replay.onMismatch,
      timing: replay.timing,
      ...(replay.redact.length === 0 ? {} : { redact: [...replay.redact] }),
    },
  };
}

function dependencyData(baseDir: string, dependency: Dependency): Data {
  if (dependency.type === "mcp_stdio")
    return { type: "mcp_stdio", ...command(baseDir, dependency), ...replayData(baseDir, dependency) };
  const start = dependency.start;
  return {
    type: "http",
    base_url: dependency.baseUrl,
    ...(start === null
      ? {}
      : {
          start: {
            ...command(baseDir, start),
            readiness: { path: start.readiness.path, timeout_seconds: start.readiness.timeoutSeconds },
          },
        }),
    ...(dependency.urlEnv === null ? {} : { url_env: dependency.urlEnv }),
    ...(dependency.protocol === "mcp" ? { protocol: "mcp" } : {}),
    ...(dependency.ignoreJsonFields.length === 0
      ? {}
      : { identity: { ignore_json_fields: [...dependency.ignoreJsonFields] } }),
    ...replayData(baseDir, dependency),
  };
}

/** Millionths as the shortest decimal (500000 → 0.5). */
function probability(millionths: number): number {
  return Number((millionths / 1_000_000).toFixed(6));
}

function triggerData(trigger: Trigger): Data {
  if (trigger.kind === "outage")
    return { outage: { start_ms: trigger.startMs, duration_ms: trigger.durationMs } };
  if (trigger.kind === "quota") return { quota: { [trigger.unit]: trigger.limit, per_ms: trigger.perMs } };
  if (trigger.kind === "occurrence_schedule") {
    const [only, ...rest] = trigger.occurrences;
    return rest.length === 0 && only !== undefined
      ? { occurrence: only }
      : { occurrences: [...trigger.occurrences] };
  }
  return {
    probability: probability(trigger.probabilityMillionths),
    seed: trigger.seed,
    window: {
      start_occurrence: trigger.window.startOccurrence,
      end_occurrence: trigger.window.endOccurrence,
    },
  };
}

function withoutNulls(data: Data): Data {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null));
}

/** One fault as a scenario file writes it (also the form explore.json records). */
export function faultData(fault: Fault): Data {
  return {
    id: fault.id,
    dependency: fault.dependency,
    type: fault.type,
    target: withoutNulls({ ...reportTarget(fault.target) }),
    trigger: triggerData(fault.trigger),
    ...(fault.expect === "recover" ? {} : { expect: fault.expect }),
    ...faultParameters(fault),
    // A corruption fault's sinks are a list in the file (the report joins them into one string).
    ...("sinks" in fault ? { sinks: [...fault.sinks] } : {}),
  };
}

function checksData(checks: ChecksConfig): Data {
  return {
    retry_after: checks.retry_after.mode,
    retry_storm: {
      mode: checks.retry_storm.mode,
      max_attempts: checks.retry_storm.maxAttempts,
      min_gap_ms: checks.retry_storm.minGapMs,
    },
    duplicate_writes: checks.duplicate_writes.mode,
    ...(checks.fail_fast.mode === "off"
      ? {}
      : { fail_fast: { mode: checks.fail_fast.mode, max_ms: checks.fail_fast.maxMs } }),
    ...(checks.cancellation.mode === "off" ? {} : { cancellation: checks.cancellation.mode }),
  };
}

/** The scenario as plain file data, keys in the order docs/scenario.md writes them. */
export function scenarioData(scenario: Scenario, baseDir: string): Data {
  return {
    schema_version: 2,
    name: scenario.name,
    dependencies: Object.fromEntries(
      scenario.dependencies.map((dependency) => [dependency.name, dependencyData(baseDir, dependency)]),
    ),
    workload: {
      ...(scenario.workload.name === null ? {} : { name: scenario.workload.name }),
      ...command(baseDir, scenario.workload),
    },
    ...(scenario.faults.length === 0 ? {} : { faults: scenario.faults.map(faultData) }),
    recovery: scenario.recovery,
    checks: checksData(scenario.checks),
    success: { exit_code: scenario.success.exitCode },
    timeout_seconds: scenario.timeoutSeconds,
    ...(scenario.verify == null
      ? {}
      : {
          verify: { command: [...scenario.verify.command], timeout_seconds: scenario.verify.timeoutSeconds },
        }),
  };
}

/** Keys whose mappings read best on one line. */
const FLOW_MAPPINGS = new Set(["target", "trigger", "readiness", "window", "identity", "success"]);

/**
 * The scenario file text for a file placed in `baseDir` (relative `cwd`s are written from
 * there), after `comments` (each becomes a `# ` line).
 */
export function scenarioText(scenario: Scenario, baseDir: string, comments: readonly string[] = []): string {
  const document = new Document(scenarioData(scenario, baseDir));
  visit(document, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
    Pair(_, pair) {
      if (isScalar(pair.key) && FLOW_MAPPINGS.has(String(pair.key.value)) && isMap(pair.value)) {
        if (pair.value.items.every((item) => isScalar(item.value) || isSeq(item.value)))
          pair.value.flow = true;
      }
    },
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters would end a comment line
  const head = comments.map((line) => `# ${line.replace(/[\u0000-\u001f\u007f]/g, " ")}\n`).join("");
  return head + document.toString({ lineWidth: 0, flowCollectionPadding: false });
}
