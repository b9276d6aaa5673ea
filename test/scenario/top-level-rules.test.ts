import { describe, expect, it } from "vitest";
import { parse, problemPaths, scenarioText } from "./scenario-text.js";

describe("top-level keys", () => {
  it("accepts the base scenario", () => {
    expect(parse(scenarioText()).name).toBe("test-scenario");
  });

  it.each([
    "schema_version: 3",
    "schema_version: 0",
    'schema_version: "1"',
    "schema_version: 1.0",
    "schema_version: true",
  ])("rejects %s: schema_version is exactly the integer 1 or 2", (line) => {
    expect(problemPaths(scenarioText({ schemaVersion: line }))).toEqual(["schema_version"]);
  });

  it("rejects a scenario without schema_version", () => {
    expect(problemPaths(scenarioText({ schemaVersion: "# no schema_version" }))).toEqual(["schema_version"]);
  });

  it.each(['name: ""', "name: 5", "name: true", "name: null", "name: [a]"])(
    "rejects %s: name is a non-empty string",
    (line) => {
      expect(problemPaths(scenarioText().replace("name: test-scenario", line))).toEqual(["name"]);
    },
  );

  it("rejects an unknown top-level key", () => {
    expect(problemPaths(scenarioText({ extra: "retries: 3" }))).toEqual(["retries"]);
  });

  it.each([
    ["0", 0],
    ["1", 1],
    ["255", 255],
  ])("accepts success.exit_code %s", (text, value) => {
    expect(parse(scenarioText({ success: `  exit_code: ${text}` })).success.exitCode).toBe(value);
  });

  it.each(["256", "-1", "1.5", '"0"', "true", "null"])("rejects success.exit_code %s", (text) => {
    expect(problemPaths(scenarioText({ success: `  exit_code: ${text}` }))).toEqual(["success.exit_code"]);
  });

  it("rejects a success mapping without exit_code and one with an unknown key", () => {
    expect(problemPaths(scenarioText({ success: "  code: 0" }))).toEqual([
      "success.code",
      "success.exit_code",
    ]);
  });

  it.each([
    ["10", 10],
    ["0.5", 0.5],
    ["1e3", 1000],
  ])("accepts timeout_seconds %s", (text, value) => {
    expect(parse(scenarioText({ extra: `timeout_seconds: ${text}` })).timeoutSeconds).toBe(value);
  });

  it.each(["0", "-1", "0.0", ".inf", ".nan", '"10"', "true"])("rejects timeout_seconds %s", (text) => {
    expect(problemPaths(scenarioText({ extra: `timeout_seconds: ${text}` }))).toEqual(["timeout_seconds"]);
  });
});

describe("dependency", () => {
  const dependency = (lines: string): string => scenarioText({ dependency: lines });

  it.each(["http://127.0.0.1:8080/v1", "https://api.example.test", "HTTP://localhost:1"])(
    "accepts base_url %s and keeps it as written",
    (url) => {
      expect(parse(dependency(`  type: http\n  base_url: ${url}`)).dependency.baseUrl).toBe(url);
    },
  );

  it.each(["ftp://127.0.0.1", "127.0.0.1:8080", "/v1", "http://", '""', "8080"])(
    "rejects base_url %s",
    (url) => {
      expect(problemPaths(dependency(`  type: http\n  base_url: ${url}`))).toEqual(["dependency.base_url"]);
    },
  );

  it.each(["grpc", "HTTP", "null"])("rejects type %s: it is the string http", (type) => {
    expect(problemPaths(dependency(`  type: ${type}\n  base_url: http://h`))).toEqual(["dependency.type"]);
  });

  it("requires readiness under start, and readiness requires a path", () => {
    const base = "  type: http\n  base_url: http://h\n  start:\n    command: [node, api.mjs]";
    expect(problemPaths(dependency(base))).toEqual(["dependency.start.readiness"]);
    expect(problemPaths(dependency(`${base}\n    readiness: {}`))).toEqual([
      "dependency.start.readiness.path",
    ]);
  });

  it("defaults readiness.timeout_seconds to 5 and resolves start.cwd against the scenario folder", () => {
    const start = parse(
      dependency(
        "  type: http\n  base_url: http://h\n  start:\n    command: [api]\n    cwd: ../api\n    readiness: {path: /}",
      ),
    ).dependency.start;
    expect(start?.readiness).toEqual({ path: "/", timeoutSeconds: 5 });
    expect(start?.cwd).toBe("/api");
  });

  it.each(["health", '""', "5"])("rejects readiness.path %s: it begins with /", (path) => {
    const lines = `  type: http\n  base_url: http://h\n  start:\n    command: [api]\n    readiness: {path: ${path}}`;
    expect(problemPaths(dependency(lines))).toEqual(["dependency.start.readiness.path"]);
  });

  it.each(["0", "-2", '"5"', ".inf"])("rejects readiness.timeout_seconds %s", (value) => {
    const lines = `  type: http\n  base_url: http://h\n  start:\n    command: [api]\n    readiness: {path: /, timeout_seconds: ${value}}`;
    expect(problemPaths(dependency(lines))).toEqual(["dependency.start.readiness.timeout_seconds"]);
  });
});

describe("workload and commands", () => {
  const workload = (lines: string): string => scenarioText({ workload: lines });

  it("resolves a relative cwd against the scenario file's folder, not the process's", () => {
    expect(parse(workload("  command: [a]\n  cwd: sub/dir")).workload.cwd).toBe("/scenarios/sub/dir");
    expect(parse(workload("  command: [a]\n  cwd: /abs")).workload.cwd).toBe("/abs");
    expect(parse(workload("  command: [a]")).workload.cwd).toBe("/scenarios");
  });

  it("keeps name, env and proxy_url_env", () => {
    const parsed = parse(
      workload('  name: agent\n  command: [a, "--x", "1"]\n  env: {K: v, E: ""}\n  proxy_url_env: _API_URL1'),
    );
    expect(parsed.workload).toMatchObject({
      name: "agent",
      command: ["a", "--x", "1"],
      env: { K: "v", E: "" },
      proxyUrlEnv: "_API_URL1",
    });
  });

  it.each([
    ["command: []", "workload.command"],
    ["command: node", "workload.command"],
    ['command: [""]', "workload.command[0]"],
    ["command: [node, 5]", "workload.command[1]"],
    ["command: [node, true]", "workload.command[1]"],
    ["command: [node, [x]]", "workload.command[1]"],
  ])("rejects %s", (line, path) => {
    expect(problemPaths(workload(`  ${line}`))).toEqual([path]);
  });

  it("rejects a workload without a command", () => {
    expect(problemPaths(workload("  name: agent"))).toEqual(["workload.command"]);
  });

  it.each([
    ["env: {PORT: 8080}", "workload.env.PORT"],
    ["env: {FLAG: true}", "workload.env.FLAG"],
    ["env: [A=1]", "workload.env"],
    ['env: {"": x}', 'workload.env[""]'],
    ['env: {"A=B": x}', "workload.env.A=B"],
  ])("rejects %s: env maps names to strings", (line, path) => {
    expect(problemPaths(workload(`  command: [a]\n  ${line}`))).toEqual([path]);
  });

  it.each(["1API", "API-URL", "API URL", '""', "5"])("rejects proxy_url_env %s", (name) => {
    expect(problemPaths(workload(`  command: [a]\n  proxy_url_env: ${name}`))).toEqual([
      "workload.proxy_url_env",
    ]);
  });

  it.each(['name: ""', "name: 7", 'cwd: ""', "cwd: 3"])("rejects %s", (line) => {
    expect(problemPaths(workload(`  command: [a]\n  ${line}`))).toEqual([`workload.${line.split(":")[0]}`]);
  });

  it("rejects unknown keys in workload, dependency, start and readiness", () => {
    const text = scenarioText({
      dependency:
        "  type: http\n  base_url: http://h\n  port: 1\n  start:\n    command: [a]\n    shell: true\n    readiness: {path: /, retries: 2}",
      workload: "  command: [a]\n  args: [b]",
    });
    expect(problemPaths(text)).toEqual([
      "dependency.port",
      "dependency.start.shell",
      "dependency.start.readiness.retries",
      "workload.args",
    ]);
  });
});
