import { describe, expect, it } from "vitest";
import { faultText, parse, problemPaths, problems, scenarioText } from "./scenario-text.js";

const withFault = (type: string, options: Parameters<typeof faultText>[1] = {}): string =>
  scenarioText({ fault: faultText(type, options) });

describe("fault types and their own keys", () => {
  it("treats an absent fault and `fault: null` as a baseline run", () => {
    expect(parse(scenarioText()).fault).toBeNull();
    expect(parse(scenarioText({ fault: "fault: null" })).fault).toBeNull();
    expect(parse(scenarioText({ fault: "fault:" })).fault).toBeNull();
  });

  it("accepts each of the five fault types with exactly its own keys", () => {
    expect(parse(withFault("http_latency", { own: "  latency_ms: 750" })).fault).toMatchObject({
      type: "http_latency",
      latencyMs: 750,
    });
    expect(parse(withFault("http_error", { own: "  status_code: 503" })).fault).toMatchObject({
      type: "http_error",
      statusCode: 503,
    });
    expect(parse(withFault("http_rate_limit", { own: "  retry_after_seconds: 1" })).fault).toMatchObject({
      type: "http_rate_limit",
      retryAfterSeconds: 1,
    });
    expect(parse(withFault("http_malformed_json")).fault).toEqual({
      type: "http_malformed_json",
      target: { method: "GET", path: "/customer/*" },
      trigger: { kind: "occurrence_schedule", occurrences: [2] },
    });
    expect(parse(withFault("http_disconnect")).fault?.type).toBe("http_disconnect");
  });

  it.each(["malformed_json", "disconnect", "http_timeout", "HTTP_ERROR", "5"])(
    "rejects the unknown type %s",
    (type) => {
      expect(problemPaths(withFault(type))).toEqual(["fault.type"]);
    },
  );

  it("rejects a fault without a type and a fault that is not a mapping", () => {
    expect(problemPaths(scenarioText({ fault: "fault:\n  target: {path: /x}" }))).toEqual(["fault.type"]);
    expect(problemPaths(scenarioText({ fault: "fault: [http_error]" }))).toEqual(["fault"]);
    expect(problemPaths(scenarioText({ fault: "fault: http_error" }))).toEqual(["fault"]);
  });

  it("rejects a key of another fault type and says which keys this type accepts", () => {
    const found = problems(withFault("http_error", { own: "  status_code: 503\n  latency_ms: 10" }));
    expect(found.map((problem) => problem.path)).toEqual(["fault.latency_ms"]);
    expect(found[0]?.message).toContain("type, target, trigger, status_code");
    expect(problemPaths(withFault("http_disconnect", { own: "  status_code: 503" }))).toEqual([
      "fault.status_code",
    ]);
  });

  it("rejects a fault without its required own key, target or trigger", () => {
    expect(problemPaths(withFault("http_latency"))).toEqual(["fault.latency_ms"]);
    expect(problemPaths(withFault("http_rate_limit"))).toEqual(["fault.retry_after_seconds"]);
    expect(problemPaths(scenarioText({ fault: "fault:\n  type: http_disconnect" }))).toEqual([
      "fault.target",
      "fault.trigger",
    ]);
  });

  it.each([
    ["0", false],
    ["1", true],
    ["750", true],
    ["-1", false],
    ["1.5", false],
    ['"750"', false],
  ])("latency_ms %s is valid: %s (a positive integer)", (value, valid) => {
    const text = withFault("http_latency", { own: `  latency_ms: ${value}` });
    if (valid) expect(parse(text).fault).toMatchObject({ latencyMs: Number(value) });
    else expect(problemPaths(text)).toEqual(["fault.latency_ms"]);
  });

  it.each([
    ["399", false],
    ["400", true],
    ["503", true],
    ["599", true],
    ["600", false],
    ["503.0", false],
    ['"503"', false],
  ])("status_code %s is valid: %s (an integer 400-599)", (value, valid) => {
    const text = withFault("http_error", { own: `  status_code: ${value}` });
    if (valid) expect(parse(text).fault).toMatchObject({ statusCode: Number(value) });
    else expect(problemPaths(text)).toEqual(["fault.status_code"]);
  });

  it.each([
    ["0", true],
    ["1", true],
    ["-1", false],
    ["0.5", false],
    ["true", false],
  ])("retry_after_seconds %s is valid: %s (an integer of at least 0)", (value, valid) => {
    const text = withFault("http_rate_limit", { own: `  retry_after_seconds: ${value}` });
    if (valid) expect(parse(text).fault).toMatchObject({ retryAfterSeconds: Number(value) });
    else expect(problemPaths(text)).toEqual(["fault.retry_after_seconds"]);
  });
});

describe("fault.target", () => {
  const target = (lines: string): string => withFault("http_disconnect", { target: lines });

  it("upper-cases the method and leaves it null when absent", () => {
    expect(parse(target("    method: post\n    path: /x")).fault?.target).toEqual({
      method: "POST",
      path: "/x",
    });
    expect(parse(target("    path: /x")).fault?.target).toEqual({ method: null, path: "/x" });
  });

  it.each(["/", "/customer/*", "/a/*/b", "/Case/Sensitive"])("accepts the path %s", (path) => {
    expect(parse(target(`    path: ${path}`)).fault?.target.path).toBe(path);
  });

  it.each(["customer/*", '"/a?b=1"', '"/a[1]"', '"/a]"', '""', "5"])("rejects the path %s", (path) => {
    expect(problemPaths(target(`    path: ${path}`))).toEqual(["fault.target.path"]);
  });

  it("rejects a target without path, a method that is not a string and an unknown target key", () => {
    expect(problemPaths(target("    method: GET"))).toEqual(["fault.target.path"]);
    expect(problemPaths(target("    method: 5\n    path: /x"))).toEqual(["fault.target.method"]);
    expect(problemPaths(target("    path: /x\n    query: a=1"))).toEqual(["fault.target.query"]);
  });
});
