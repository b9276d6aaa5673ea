import { describe, expect, it } from "vitest";
import { type RawFault, rawScenario, scenarioFiles } from "./helpers/scenario-files.js";

const WINDOW = "p=0.5 seed=10 window=1-5";

/** The docs/examples.md table: fault and trigger, knobs, expected exit code. */
const DEMO_TABLE: Record<string, { fault: string; env: Record<string, string>; exitCode: number }> = {
  "no_fault.yaml": { fault: "none", env: {}, exitCode: 0 },
  "api_latency_recovery.yaml": {
    fault: "http_latency 750 @[2]",
    env: { DEMO_TIMEOUT_MS: "150" },
    exitCode: 0,
  },
  "api_503_recovery.yaml": { fault: "http_error 503 @[2]", env: {}, exitCode: 0 },
  "api_503_failure.yaml": { fault: "http_error 503 @[2]", env: { DEMO_MAX_ATTEMPTS: "1" }, exitCode: 0 },
  "api_429_recovery.yaml": { fault: "http_rate_limit 1 @[2]", env: {}, exitCode: 0 },
  "api_429_failure.yaml": {
    fault: "http_rate_limit 1 @[2]",
    env: { DEMO_MAX_ATTEMPTS: "1", DEMO_EXHAUSTED_EXIT_CODE: "0" },
    exitCode: 0,
  },
  "http_malformed_json_recovery.yaml": { fault: "http_malformed_json @[2]", env: {}, exitCode: 0 },
  "http_malformed_json_failure.yaml": {
    fault: "http_malformed_json @[2]",
    env: { DEMO_MAX_ATTEMPTS: "1" },
    exitCode: 1,
  },
  "http_disconnect_recovery.yaml": {
    fault: "http_disconnect @[2]",
    env: { DEMO_TIMEOUT_MS: "1000" },
    exitCode: 0,
  },
  "http_disconnect_failure.yaml": {
    fault: "http_disconnect @[2]",
    env: { DEMO_TIMEOUT_MS: "1000", DEMO_MAX_ATTEMPTS: "1" },
    exitCode: 1,
  },
  "api_503_schedule_recovery.yaml": {
    fault: "http_error 503 @[2,4]",
    env: { DEMO_REFRESHES: "2" },
    exitCode: 0,
  },
  "api_503_schedule_incomplete.yaml": { fault: "http_error 503 @[2,4]", env: {}, exitCode: 0 },
  "api_503_probability_recovery.yaml": {
    fault: `http_error 503 @${WINDOW}`,
    env: { DEMO_REFRESHES: "2" },
    exitCode: 0,
  },
  "api_503_probability_incomplete.yaml": { fault: `http_error 503 @${WINDOW}`, env: {}, exitCode: 0 },
};

function describeFault(fault: RawFault | null | undefined): string {
  if (fault === undefined || fault === null) return "none";
  const { type, target: _target, trigger, ...parameters } = fault;
  const values = Object.values(parameters).map(String);
  const when =
    trigger.probability !== undefined
      ? `p=${trigger.probability} seed=${trigger.seed} window=${trigger.window?.start_occurrence}-${trigger.window?.end_occurrence}`
      : `[${(trigger.occurrences ?? [trigger.occurrence]).join(",")}]`;
  return [type, ...values, `@${when}`].join(" ");
}

function portOf(url: string): string {
  return new URL(url).port;
}

describe("the bundled example scenario files", () => {
  it("include exactly the fourteen demo examples of the documented table", () => {
    const demo = scenarioFiles().filter((file) => !file.includes("/"));
    expect(demo).toEqual(Object.keys(DEMO_TABLE).sort());
  });

  it.each(Object.entries(DEMO_TABLE))(
    "%s has the fault, knobs and expected exit code of its row",
    (file, row) => {
      const scenario = rawScenario(file);
      expect(describeFault(scenario.fault)).toBe(row.fault);
      const env: Record<string, string> = scenario.workload.env ?? {};
      expect(env).toMatchObject(row.env);
      expect(scenario.success.exit_code).toBe(row.exitCode);
      expect(scenario.workload).toMatchObject({
        command: ["node", "demo-agent.mjs"],
        cwd: "..",
        proxy_url_env: "CUSTOMER_API_URL",
      });
      expect(scenario.dependency.start).toMatchObject({ cwd: "..", readiness: { path: "/health" } });
      expect(scenario.timeout_seconds).toBe(10);
      if (scenario.fault) expect(scenario.fault.target).toEqual({ method: "GET", path: "/customer/*" });
    },
  );

  it("give every example its own port, the same in base_url and in the start command", () => {
    const ports = scenarioFiles().map((file) => {
      const { dependency } = rawScenario(file);
      const command: string[] = dependency.start.command;
      expect(command.slice(-2)).toEqual(["--port", portOf(dependency.base_url)]);
      return portOf(dependency.base_url);
    });
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("point every LLM example at the exact API path of its agent's SDK", () => {
    const llm = scenarioFiles().filter((file) => file.startsWith("llm/"));
    expect(llm.length).toBeGreaterThanOrEqual(8);
    for (const file of llm) {
      const { workload, fault } = rawScenario(file);
      const path = workload.command[1]?.includes("openai") ? "/v1/chat/completions" : "/v1/messages";
      if (fault) expect(fault.target).toEqual({ method: "POST", path });
    }
  });
});
