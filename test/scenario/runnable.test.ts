import { describe, expect, it } from "vitest";
import { formatScenarioError } from "../../src/scenario/errors.js";
import { parse, problemPaths, problems, scenarioError, scenarioText } from "./scenario-text.js";

/** Every scenario here is one that `run` would refuse (spawn error, URIError): `validate` must refuse it too. */
describe("validate refuses what run cannot run", () => {
  it.each([
    ["a NUL byte in a command item", { workload: '  command: [node, "a\\0b"]' }, "workload.command[1]"],
    ["a NUL byte in cwd", { workload: '  command: [node]\n  cwd: "x\\0y"' }, "workload.cwd"],
    ["a NUL byte in an env value", { workload: '  command: [node]\n  env: {A: "x\\0y"}' }, "workload.env.A"],
    [
      "a NUL byte in the dependency's command",
      {
        dependency:
          '  type: http\n  base_url: http://127.0.0.1:1\n  start:\n    command: ["\\0"]\n    readiness: {path: /}',
      },
      "dependency.start.command[0]",
    ],
    [
      "a malformed %-escape in the user name",
      { dependency: "  type: http\n  base_url: http://us%zzer:pw@127.0.0.1:1" },
      "dependency.base_url",
    ],
    [
      "a malformed %-escape in the password",
      { dependency: "  type: http\n  base_url: http://user:p%4@127.0.0.1:1" },
      "dependency.base_url",
    ],
    [
      "a %-escape that is not UTF-8",
      { dependency: "  type: http\n  base_url: http://user:%ff@127.0.0.1:1" },
      "dependency.base_url",
    ],
    [
      "proxy_url_env PATH",
      { workload: "  command: [node]\n  proxy_url_env: PATH" },
      "workload.proxy_url_env",
    ],
    [
      "proxy_url_env AGENTCHAOS_RUN_ID",
      { workload: "  command: [node]\n  proxy_url_env: AGENTCHAOS_RUN_ID" },
      "workload.proxy_url_env",
    ],
  ])("%s", (_, parts, path) => {
    expect(problemPaths(scenarioText(parts))).toEqual([path]);
  });

  it("never echoes the refused value", () => {
    const [problem] = problems(scenarioText({ workload: '  command: [node]\n  env: {A: "s3cr3t\\0"}' }));
    expect(problem?.message).toBe("expected a string value without NUL characters");
    const text = scenarioText({ dependency: "  type: http\n  base_url: http://user:s3cr3t%zz@127.0.0.1:1" });
    expect(formatScenarioError(scenarioError(text), "s.yaml")).not.toContain("s3cr3t");
  });

  it("accepts valid escapes, AGENTCHAOS_PROXY_URL and ordinary names", () => {
    expect(
      parse(scenarioText({ dependency: "  type: http\n  base_url: http://us%40er:p%C3%A9@127.0.0.1:1" }))
        .dependency.baseUrl,
    ).toBe("http://us%40er:p%C3%A9@127.0.0.1:1");
    expect(
      parse(scenarioText({ workload: "  command: [node]\n  proxy_url_env: AGENTCHAOS_PROXY_URL" })).workload
        .proxyUrlEnv,
    ).toBe("AGENTCHAOS_PROXY_URL");
    expect(
      parse(scenarioText({ workload: "  command: [node]\n  proxy_url_env: Path" })).workload.proxyUrlEnv,
    ).toBe("Path");
  });
});
