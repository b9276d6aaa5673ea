import { describe, it } from "vitest";
import { faultText, scenarioText } from "../scenario/scenario-text.js";
import { expectAcceptedByBoth, expectLeftToValidate, expectRejectedByBoth } from "./schema-harness.js";

const withFault = (type: string, options: Parameters<typeof faultText>[1] = {}): string =>
  scenarioText({ fault: faultText(type, options) });
const withTrigger = (lines: string): string =>
  scenarioText({ fault: faultText("http_error", { trigger: lines, own: "  status_code: 503" }) });
const probability = (value: string, seed = "10", window = "{start_occurrence: 1, end_occurrence: 5}") =>
  `    probability: ${value}\n    seed: ${seed}\n    window: ${window}`;
const withDependency = (lines: string): string => scenarioText({ dependency: lines });
const START = "  type: http\n  base_url: http://h\n  start:\n    command: [api]";
const withWorkload = (lines: string): string => scenarioText({ workload: lines });

describe("schema 1: accepted by validate and by the JSON Schema", () => {
  it.each<[string, string]>([
    ["the base scenario", scenarioText()],
    ["fault: null", scenarioText({ fault: "fault: null" })],
    ["an empty fault", scenarioText({ fault: "fault:" })],
    ["http_latency", withFault("http_latency", { own: "  latency_ms: 1" })],
    ["http_error 400", withFault("http_error", { own: "  status_code: 400" })],
    ["http_error 599", withFault("http_error", { own: "  status_code: 599" })],
    ["http_rate_limit 0", withFault("http_rate_limit", { own: "  retry_after_seconds: 0" })],
    ["http_malformed_json", withFault("http_malformed_json")],
    ["http_disconnect without a method", withFault("http_disconnect", { target: "    path: /" })],
    ["a lower-case method", withFault("http_disconnect", { target: "    method: post\n    path: /a/*/b" })],
    ["occurrences [1]", withTrigger("    occurrences: [1]")],
    ["occurrences [1, 2, 10]", withTrigger("    occurrences: [1, 2, 10]")],
    ["probability 1", withTrigger(probability("1"))],
    ["probability 0.000001", withTrigger(probability("0.000001"))],
    ["probability 5e-1", withTrigger(probability("5e-1"))],
    ["seed 0", withTrigger(probability("0.5", "0"))],
    ["seed 2^64 - 1", withTrigger(probability("0.5", "18446744073709551615"))],
    [
      "a window of one occurrence",
      withTrigger(probability("0.5", "1", "{start_occurrence: 3, end_occurrence: 3}")),
    ],
    ["exit_code 255", scenarioText({ success: "  exit_code: 255" })],
    ["timeout_seconds 0.5", scenarioText({ extra: "timeout_seconds: 0.5" })],
    ["timeout_seconds 1e3", scenarioText({ extra: "timeout_seconds: 1e3" })],
    ["an upper-case URL scheme", withDependency("  type: http\n  base_url: HTTP://localhost:1")],
    ["an https URL with a path", withDependency("  type: http\n  base_url: https://api.example.test/v1")],
    [
      "a managed dependency with every key",
      withDependency(
        `${START}\n    cwd: ../api\n    env: {PORT: "1"}\n    readiness: {path: /health, timeout_seconds: 2.5}`,
      ),
    ],
    [
      "a workload with every key",
      withWorkload(
        '  name: agent\n  command: [a, "--x", "1"]\n  cwd: sub\n  env: {K: v, E: ""}\n  proxy_url_env: _API_URL1',
      ),
    ],
  ])("%s", (_, text) => {
    expectAcceptedByBoth(text);
  });
});

describe("schema 1: rejected by validate and by the JSON Schema", () => {
  it.each<[string, string]>([
    // The top level.
    ["a top-level list", "- a\n- b\n"],
    ["a top-level string", "just text\n"],
    ["a top-level number", "42\n"],
    ["a top-level null", "~\n"],
    ["schema_version 3", scenarioText({ schemaVersion: "schema_version: 3" })],
    ["schema_version 0", scenarioText({ schemaVersion: "schema_version: 0" })],
    ['schema_version "1"', scenarioText({ schemaVersion: 'schema_version: "1"' })],
    ["schema_version true", scenarioText({ schemaVersion: "schema_version: true" })],
    ["no schema_version", scenarioText({ schemaVersion: "# no schema_version" })],
    ...['name: ""', "name: 5", "name: true", "name: null", "name: [a]"].map((line): [string, string] => [
      line,
      scenarioText().replace("name: test-scenario", line),
    ]),
    ["an unknown top-level key", scenarioText({ extra: "retries: 3" })],
    ...["256", "-1", "1.5", '"0"', "true", "null"].map((value): [string, string] => [
      `exit_code ${value}`,
      scenarioText({ success: `  exit_code: ${value}` }),
    ]),
    ["success without exit_code", scenarioText({ success: "  code: 0" })],
    ...["0", "-1", "0.0", '"10"', "true"].map((value): [string, string] => [
      `timeout_seconds ${value}`,
      scenarioText({ extra: `timeout_seconds: ${value}` }),
    ]),
    // The dependency.
    ...["ftp://127.0.0.1", "127.0.0.1:8080", "/v1", "http://", '""', "8080"].map((url): [string, string] => [
      `base_url ${url}`,
      withDependency(`  type: http\n  base_url: ${url}`),
    ]),
    ...["grpc", "HTTP", "null"].map((type): [string, string] => [
      `dependency type ${type}`,
      withDependency(`  type: ${type}\n  base_url: http://h`),
    ]),
    ["start without readiness", withDependency(START)],
    ["readiness without path", withDependency(`${START}\n    readiness: {}`)],
    ...["health", '""', "5"].map((path): [string, string] => [
      `readiness.path ${path}`,
      withDependency(`${START}\n    readiness: {path: ${path}}`),
    ]),
    ...["0", "-2", '"5"'].map((value): [string, string] => [
      `readiness.timeout_seconds ${value}`,
      withDependency(`${START}\n    readiness: {path: /, timeout_seconds: ${value}}`),
    ]),
    ["dependency.port", withDependency("  type: http\n  base_url: http://h\n  port: 1")],
    ["start.shell", withDependency(`${START}\n    shell: true\n    readiness: {path: /}`)],
    ["readiness.retries", withDependency(`${START}\n    readiness: {path: /, retries: 2}`)],
    // The workload and its command.
    ...[
      "command: []",
      "command: node",
      'command: [""]',
      "command: [node, 5]",
      "command: [node, true]",
      "command: [node, [x]]",
    ].map((line): [string, string] => [line, withWorkload(`  ${line}`)]),
    ["a workload without command", withWorkload("  name: agent")],
    ...["env: {PORT: 8080}", "env: {FLAG: true}", "env: [A=1]", 'env: {"": x}', 'env: {"A=B": x}'].map(
      (line): [string, string] => [line, withWorkload(`  command: [a]\n  ${line}`)],
    ),
    ...["1API", "API-URL", "API URL", '""', "5"].map((name): [string, string] => [
      `proxy_url_env ${name}`,
      withWorkload(`  command: [a]\n  proxy_url_env: ${name}`),
    ]),
    ...['name: ""', "name: 7", 'cwd: ""', "cwd: 3", "args: [b]"].map((line): [string, string] => [
      `workload ${line}`,
      withWorkload(`  command: [a]\n  ${line}`),
    ]),
    // The fault.
    ...["malformed_json", "disconnect", "http_timeout", "HTTP_ERROR", "5"].map((type): [string, string] => [
      `fault type ${type}`,
      withFault(type),
    ]),
    ["a fault without type", scenarioText({ fault: "fault:\n  target: {path: /x}" })],
    ["a fault that is a list", scenarioText({ fault: "fault: [http_error]" })],
    ["a fault that is a string", scenarioText({ fault: "fault: http_error" })],
    ["another type's key", withFault("http_error", { own: "  status_code: 503\n  latency_ms: 10" })],
    ["status_code on http_disconnect", withFault("http_disconnect", { own: "  status_code: 503" })],
    ["http_latency without latency_ms", withFault("http_latency")],
    ["http_rate_limit without retry_after_seconds", withFault("http_rate_limit")],
    ["a fault without target and trigger", scenarioText({ fault: "fault:\n  type: http_disconnect" })],
    ...["0", "-1", "1.5", '"750"'].map((value): [string, string] => [
      `latency_ms ${value}`,
      withFault("http_latency", { own: `  latency_ms: ${value}` }),
    ]),
    ...["399", "600", '"503"'].map((value): [string, string] => [
      `status_code ${value}`,
      withFault("http_error", { own: `  status_code: ${value}` }),
    ]),
    ...["-1", "0.5", "true"].map((value): [string, string] => [
      `retry_after_seconds ${value}`,
      withFault("http_rate_limit", { own: `  retry_after_seconds: ${value}` }),
    ]),
    ...["customer/*", '"/a?b=1"', '"/a[1]"', '"/a]"', '""', "5"].map((path): [string, string] => [
      `target path ${path}`,
      withFault("http_disconnect", { target: `    path: ${path}` }),
    ]),
    ["a target without path", withFault("http_disconnect", { target: "    method: GET" })],
    ["a target method 5", withFault("http_disconnect", { target: "    method: 5\n    path: /x" })],
    ["a target key query", withFault("http_disconnect", { target: "    path: /x\n    query: a=1" })],
    // The trigger.
    ...["0", "-1", "1.5", "true", '"2"'].map((value): [string, string] => [
      `occurrence ${value}`,
      withTrigger(`    occurrence: ${value}`),
    ]),
    ...["[2, 2]", "[0]", "[-1]", "[]", "[true]", "[1.5]", '["1"]', "2"].map((list): [string, string] => [
      `occurrences ${list}`,
      withTrigger(`    occurrences: ${list}`),
    ]),
    ...["0", "0.0", "1.000001", "2", "-0.5", "true", '"0.5"', "'0.5'", "null"].map(
      (value): [string, string] => [`probability ${value}`, withTrigger(probability(value))],
    ),
    ...["-1", "1.5", '"10"', "true"].map((seed): [string, string] => [
      `seed ${seed}`,
      withTrigger(probability("0.5", seed)),
    ]),
    ...[
      "{start_occurrence: 0, end_occurrence: 3}",
      "{start_occurrence: 1, end_occurrence: 2.5}",
      "{start_occurrence: 1}",
      "{start_occurrence: 1, end_occurrence: 2, size: 2}",
      "[1, 5]",
    ].map((window): [string, string] => [`window ${window}`, withTrigger(probability("0.5", "1", window))]),
    ["probability without window", withTrigger("    probability: 0.5\n    seed: 1")],
    [
      "seed and window without probability",
      withTrigger("    seed: 1\n    window: {start_occurrence: 1, end_occurrence: 2}"),
    ],
    ["occurrence and occurrences", withTrigger("    occurrence: 1\n    occurrences: [2]")],
    ["occurrence and probability", withTrigger(`    occurrence: 1\n${probability("0.5")}`)],
    ["occurrences and probability", withTrigger(`    occurrences: [1]\n${probability("0.5")}`)],
    ["occurrence and a lone seed", withTrigger("    occurrence: 1\n    seed: 3")],
    ["a trigger with no form", withTrigger("    {}")],
    ["a trigger key every", withTrigger("    occurrence: 1\n    every: 2")],
    // Several problems at once (test/fixtures/scenarios/many-problems.yaml has the same kind).
    [
      "a flow list with a number and an exit code too large",
      scenarioText({ workload: "  command: [node, agent.mjs, 7]", success: "  {exit_code: 300}" }),
    ],
  ])("%s", (_, text) => {
    expectRejectedByBoth(text);
  });
});

describe("schema 1: rules only validate checks", () => {
  it.each<[string, string]>([
    ["schema_version 1.0 (a YAML float)", scenarioText({ schemaVersion: "schema_version: 1.0" })],
    ["status_code 503.0 (a YAML float)", withFault("http_error", { own: "  status_code: 503.0" })],
    ["seed 1e3 (a YAML float)", withTrigger(probability("0.5", "1e3"))],
    ["occurrences [3, 2] (not increasing)", withTrigger("    occurrences: [3, 2]")],
    [
      "a window that starts after its end",
      withTrigger(probability("0.5", "1", "{start_occurrence: 4, end_occurrence: 3}")),
    ],
    ["probability 0.1234567 (seven decimal places)", withTrigger(probability("0.1234567"))],
    ["probability 0.5000000 (seven decimal places as written)", withTrigger(probability("0.5000000"))],
    ["seed 2^64 (beyond a JSON number's precision)", withTrigger(probability("0.5", "18446744073709551616"))],
    ["base_url http://a b (the full URL syntax)", withDependency("  type: http\n  base_url: http://a b")],
  ])("%s", (_, text) => {
    expectLeftToValidate(text);
  });
});
