import { describe, expect, it } from "vitest";
import { ExploreError } from "../../src/explore/errors.js";
import { applies, defaultMenu, type MenuEntry } from "../../src/explore/menu.js";
import { parseMenu } from "../../src/explore/menu-file.js";
import type { ObservedPoint } from "../../src/explore/points.js";
import type { Dependency } from "../../src/scenario/types.js";

const HTTP: Dependency = {
  name: "api",
  type: "http",
  baseUrl: "http://127.0.0.1:{port}",
  start: null,
  urlEnv: null,
  protocol: "http",
  ignoreJsonFields: [],
  usesPortPlaceholder: true,
};
const MCP_HTTP: Dependency = { ...HTTP, name: "remote", protocol: "mcp" };
const MCP_STDIO: Dependency = {
  name: "notes",
  type: "mcp_stdio",
  command: ["node", "server.mjs"],
  cwd: "/",
  env: {},
};

function point(overrides: Partial<ObservedPoint>): ObservedPoint {
  return {
    dependency: "api",
    protocol: "http",
    method: "GET",
    path: "/item",
    k: 1,
    relayedEvents: null,
    ...overrides,
  };
}

const GET = point({});
const POST = point({ method: "POST", path: "/v1/chat/completions" });
const STREAM = point({ method: "POST", path: "/v1/chat/completions", relayedEvents: 7 });
const EMPTY_STREAM = point({ relayedEvents: 0 });
const TOOL_CALL = point({ dependency: "notes", protocol: "mcp", method: "tools/call", path: "search" });
const INITIALIZE = point({ dependency: "notes", protocol: "mcp", method: "initialize", path: "" });

function labelsFor(menu: readonly MenuEntry[], at: ObservedPoint, dependency: Dependency): string[] {
  return menu.filter((entry) => applies(entry, at, dependency)).map((entry) => entry.label);
}

function menu(text: string): MenuEntry[] {
  return parseMenu(new TextEncoder().encode(text));
}

function problemsOf(text: string, unavailable?: (type: string) => boolean): string[] {
  try {
    parseMenu(new TextEncoder().encode(text), {
      unavailable: (fault) =>
        unavailable?.(fault.type) === true ? `${fault.type} is not available in this build` : null,
    });
  } catch (error) {
    if (!(error instanceof ExploreError)) throw error;
    expect(error.code).toBe("MENU_INVALID");
    if (error.problems.length === 0) return [error.message];
    return error.problems.map(
      (problem) => `${problem.path} (${problem.line}:${problem.column}) ${problem.message}`,
    );
  }
  throw new Error("expected the menu to be invalid");
}

describe("the default menu", () => {
  const entries = defaultMenu();

  it("tries a 503, a 429 with Retry-After 1 and a dropped connection on an HTTP read", () => {
    expect(labelsFor(entries, GET, HTTP)).toEqual([
      "http_error status_code=503",
      "http_rate_limit retry_after_seconds=1",
      "http_disconnect",
    ]);
  });

  it("adds a lost response on a POST or PATCH", () => {
    expect(labelsFor(entries, POST, HTTP)).toContain("http_response_lost");
    expect(labelsFor(entries, point({ method: "PATCH" }), HTTP)).toContain("http_response_lost");
    expect(labelsFor(entries, point({ method: "PUT" }), HTTP)).not.toContain("http_response_lost");
  });

  it("adds a truncated and a reset stream after one event when the baseline's response was an event stream", () => {
    expect(labelsFor(entries, STREAM, HTTP)).toEqual([
      "http_error status_code=503",
      "http_rate_limit retry_after_seconds=1",
      "http_disconnect",
      "http_stream_truncate after_events=1",
      "http_stream_reset after_events=1",
      "http_response_lost",
    ]);
    expect(labelsFor(entries, EMPTY_STREAM, HTTP)).not.toContain("http_stream_truncate after_events=1");
  });

  it("tries MCP errors and disconnects on MCP operations, and a tool error on tools/call only", () => {
    expect(labelsFor(entries, TOOL_CALL, MCP_STDIO)).toEqual([
      "mcp_error code=-32603",
      "mcp_disconnect",
      "mcp_tool_error",
    ]);
    expect(labelsFor(entries, INITIALIZE, MCP_STDIO)).toEqual(["mcp_error code=-32603", "mcp_disconnect"]);
    expect(labelsFor(entries, { ...TOOL_CALL, dependency: "remote" }, MCP_HTTP)).toEqual([
      "mcp_error code=-32603",
      "mcp_disconnect",
      "mcp_tool_error",
    ]);
  });
});

describe("a menu file's entries", () => {
  it("apply wherever their type fits", () => {
    const entries = menu(
      "- {type: http_latency, latency_ms: 500, expect: handle}\n- {type: mcp_error, code: -32000}\n- {type: http_llm_error, provider: openai, status_code: 429}\n- {type: http_stream_reset, after_events: 3}\n- {type: http_stream_truncate, after_bytes: 10}\n- {type: mcp_tool_error}\n",
    );
    expect(entries.map((entry) => `${entry.id} ${entry.label}`)).toEqual([
      "M1 http_latency latency_ms=500 expect=handle",
      "M2 mcp_error code=-32000",
      "M3 http_llm_error provider=openai status_code=429",
      "M4 http_stream_reset after_events=3",
      "M5 http_stream_truncate after_bytes=10",
      "M6 mcp_tool_error",
    ]);
    expect(labelsFor(entries, GET, HTTP)).toEqual([
      "http_latency latency_ms=500 expect=handle",
      "http_llm_error provider=openai status_code=429",
      "http_stream_truncate after_bytes=10",
    ]);
    expect(labelsFor(entries, STREAM, HTTP)).toContain("http_stream_reset after_events=3");
    expect(labelsFor(entries, point({ relayedEvents: 2 }), HTTP)).not.toContain(
      "http_stream_reset after_events=3",
    );
    expect(labelsFor(entries, TOOL_CALL, MCP_STDIO)).toEqual(["mcp_error code=-32000", "mcp_tool_error"]);
    expect(labelsFor(entries, INITIALIZE, MCP_STDIO)).toEqual(["mcp_error code=-32000"]);
    // An MCP server behind HTTP takes the schema-1 HTTP faults too, not the LLM or stream ones.
    expect(labelsFor(entries, { ...TOOL_CALL, dependency: "remote" }, MCP_HTTP)).toEqual([
      "http_latency latency_ms=500 expect=handle",
      "mcp_error code=-32000",
      "mcp_tool_error",
    ]);
  });

  it("are validated like a scenario's faults, each problem with its position", () => {
    expect(
      problemsOf(
        "- type: http_error\n  status_code: 200\n- type: http_rate_limit\n  target: {path: /x}\n  retry_after_seconds: 1\n- type: http_disconnect\n  colour: red\n- type: nope\n- 42\n- type: http_stream_truncate\n",
      ),
    ).toEqual([
      "[0].status_code (2:16) expected an integer from 400 to 599, got the integer 200",
      "[1].target (4:3) expected no target in a menu entry: explore targets each injection point's method and path itself",
      '[2].colour (7:3) unknown key "colour"; expected one of type, expect (an http_disconnect menu entry)',
      '[3].type (8:9) expected one of http_latency, http_error, http_rate_limit, http_malformed_json, http_disconnect, http_llm_error, http_stream_truncate, http_stream_reset, http_stream_stall, http_stream_error_event, http_response_lost, llm_misbehave, http_auth_expired, http_corrupt, mcp_error, mcp_tool_error, mcp_latency, mcp_no_response, mcp_disconnect, mcp_malformed, mcp_oversized, mcp_tools_changed, mcp_corrupt_result, got "nope"',
      "[4] (9:3) expected a fault mapping, got a number",
      "[5] (10:3) expected exactly one of after_events and after_bytes",
    ]);
  });

  it("may not repeat an entry, name a trigger, a dependency or an id", () => {
    expect(
      problemsOf(
        "- {type: http_error, status_code: 503}\n- {type: http_error, status_code: 503}\n- {type: http_disconnect, trigger: {occurrence: 1}, dependency: api, id: x}\n",
      ),
    ).toEqual([
      "[1] (2:3) expected a fault not already on the menu; [0] is the same",
      "[2].trigger (3:27) expected no trigger in a menu entry: explore triggers each fault on its injection point's occurrence itself",
      "[2].dependency (3:53) expected no dependency in a menu entry: explore applies each entry to the dependencies it fits",
      "[2].id (3:70) expected no id in a menu entry: explore names each experiment's faults itself",
    ]);
  });

  it("whose type this build cannot run is a problem at the type", () => {
    expect(
      problemsOf(
        "- type: http_error\n  status_code: 503\n- type: http_response_lost\n",
        (type) => type === "http_response_lost",
      ),
    ).toEqual(["[1].type (3:9) http_response_lost is not available in this build"]);
  });

  it("must be a non-empty YAML list", () => {
    expect(problemsOf("type: http_error\n")).toEqual([
      "the top level is a mapping; expected a list of faults",
    ]);
    expect(problemsOf("")).toEqual(["the file is empty; expected a list of faults"]);
    expect(problemsOf("[]\n")).toEqual([
      "(top level) (1:1) expected a list of at least one fault, got an empty list",
    ]);
    expect(problemsOf("- {type: [\n")[0]).toMatch(/^YAML syntax error at line \d+, column \d+: /);
  });
});
