import { describe, expect, it } from "vitest";
import { edited, textOf } from "../scenario/scenario-data.js";
import { expectAcceptedByBoth, expectLeftToValidate, expectRejectedByBoth } from "./schema-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: test data is edited as free-form YAML
type Edit = (data: Record<string, any>) => void;
type Case = [string, Edit];

const NOTES = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
const fault = (fields: Record<string, unknown>) => ({
  target: { path: "/x" },
  trigger: { occurrence: 1 },
  ...fields,
});
const manyDependencies =
  (count: number): Edit =>
  (d) => {
    d.dependencies = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `dep${i}`,
        { type: "http", base_url: `http://127.0.0.1:${9000 + i}` },
      ]),
    );
    d.faults = [];
  };
const manyFaults =
  (count: number): Edit =>
  (d) => {
    d.faults = Array.from({ length: count }, () => structuredClone(d.faults[0]));
  };
const pointers = (count: number) => Array.from({ length: count }, (_, i) => `/f${i}`);

const text = (edit: Edit): string => textOf(edited(edit));

describe("schema 2: accepted by validate and by the JSON Schema", () => {
  it.each<Case>([
    ["the base scenario", () => {}],
    [
      "one dependency and a fault without dependency",
      (d) => {
        delete d.dependencies.llm;
        delete d.faults[0].dependency;
      },
    ],
    ["no faults", (d) => delete d.faults],
    ["faults: null", (d) => (d.faults = null)],
    ["faults: []", (d) => (d.faults = [])],
    ["16 dependencies", manyDependencies(16)],
    [
      "a 32-character dependency name",
      (d) => (d.dependencies[`a${"b".repeat(31)}`] = { type: "http", base_url: "http://h" }),
    ],
    [
      "an mcp_stdio dependency with every key",
      (d) => (d.dependencies.notes = { ...NOTES, cwd: "..", env: { A: "1" } }),
    ],
    ["url_env CRM_URL", (d) => (d.dependencies.crm.url_env = "CRM_URL")],
    ["protocol http", (d) => (d.dependencies.crm.protocol = "http")],
    [
      "protocol mcp",
      (d) => {
        d.dependencies.crm.protocol = "mcp";
        d.faults = [];
      },
    ],
    [
      "two JSON Pointers",
      (d) => (d.dependencies.crm.identity = { ignore_json_fields: ["/metadata/attempt", "/a~1b/0"] }),
    ],
    ["32 JSON Pointers", (d) => (d.dependencies.crm.identity = { ignore_json_fields: pointers(32) })],
    ["a readiness timeout", (d) => (d.dependencies.llm.start.readiness.timeout_seconds = 2)],
    [
      "{port} inside a longer string",
      (d) => (d.dependencies.llm.start.command = ["node", "--listen=127.0.0.1:{port}"]),
    ],
    ["32 faults with default ids", manyFaults(32)],
    ["recovery fifo", (d) => (d.recovery = "fifo")],
    ["recovery chain", (d) => (d.recovery = "chain")],
    ["recovery null", (d) => (d.recovery = null)],
    ["checks null", (d) => (d.checks = null)],
    ["empty checks", (d) => (d.checks = {})],
    [
      "checks as modes and mappings",
      (d) =>
        (d.checks = {
          retry_after: { mode: "off" },
          retry_storm: { mode: "enforce", max_attempts: 3, min_gap_ms: 0 },
          duplicate_writes: "report",
        }),
    ],
    ["a check mapping without mode", (d) => (d.checks = { retry_storm: { max_attempts: 1 } })],
    [
      "checks scoped to dependencies, methods and paths",
      (d) =>
        (d.checks = {
          retry_after: { dependencies: ["llm"] },
          retry_storm: { mode: "enforce", dependencies: ["llm", "crm"] },
          duplicate_writes: {
            dependencies: ["crm"],
            methods: ["post", "PUT", "Delete"],
            paths: ["/tickets/*"],
          },
        }),
    ],
    ["timeout_seconds 0.5", (d) => (d.timeout_seconds = 0.5)],
    [
      "every HTTP fault type with every own key",
      (d) => {
        d.faults = [
          fault({ id: "lat", dependency: "llm", type: "http_latency", latency_ms: 1, expect: "recover" }),
          fault({ dependency: "llm", type: "http_latency", latency_ms: 1, jitter_ms: 0, jitter_seed: 42 }),
          fault({ dependency: "crm", type: "http_error", status_code: 599, expect: "handle" }),
          fault({ dependency: "crm", type: "http_rate_limit", retry_after_seconds: 0, expect: "give_up" }),
          fault({ dependency: "crm", type: "http_malformed_json" }),
          fault({ dependency: "crm", type: "http_disconnect", target: { method: "post", path: "/" } }),
          fault({
            dependency: "llm",
            type: "http_llm_error",
            provider: "anthropic",
            status_code: 529,
            retry_after_seconds: 0,
            retry_after_ms: 250,
            should_retry: false,
          }),
          fault({ dependency: "llm", type: "http_llm_error", provider: "openai", status_code: 400 }),
          fault({ dependency: "llm", type: "http_stream_truncate", after_events: 0 }),
          fault({ dependency: "llm", type: "http_stream_reset", after_bytes: 10 }),
          fault({ dependency: "llm", type: "http_stream_stall", after_events: 3, stall_ms: 1 }),
          fault({ dependency: "llm", type: "http_stream_error_event", after_bytes: 0, format: "openai" }),
          fault({
            dependency: "crm",
            type: "http_response_lost",
            target: { method: "POST", path: "/tickets" },
          }),
        ];
      },
    ],
    [
      "every MCP fault type with every own key",
      (d) => {
        d.dependencies.notes = NOTES;
        d.faults = [
          {
            dependency: "notes",
            type: "mcp_error",
            target: { method: "tools/call" },
            trigger: { occurrence: 1 },
          },
          {
            dependency: "notes",
            type: "mcp_error",
            target: { name: "add_*" },
            trigger: { occurrences: [2, 3] },
            code: -32000,
          },
          {
            dependency: "notes",
            type: "mcp_tool_error",
            target: { method: "tools/call", name: "add_*" },
            trigger: { occurrence: 4 },
          },
          {
            dependency: "notes",
            type: "mcp_latency",
            target: { method: "initialize" },
            trigger: { occurrence: 1 },
            latency_ms: 5,
          },
          { dependency: "notes", type: "mcp_no_response", target: { name: "x" }, trigger: { occurrence: 1 } },
          {
            dependency: "notes",
            type: "mcp_disconnect",
            target: { method: "tools/call" },
            trigger: { occurrence: 1 },
          },
        ];
      },
    ],
    [
      "an http_* fault with an MCP target on a protocol: mcp dependency",
      (d) => {
        d.dependencies.crm.protocol = "mcp";
        d.faults = [
          fault({
            dependency: "crm",
            type: "http_error",
            target: { method: "tools/call" },
            status_code: 503,
          }),
        ];
      },
    ],
    [
      "a probability trigger on a schema-2 fault",
      (d) =>
        (d.faults[0].trigger = {
          probability: 0.25,
          seed: 18446744073709551615n,
          window: { start_occurrence: 1, end_occurrence: 5 },
        }),
    ],
  ])("%s", (_, edit) => {
    expectAcceptedByBoth(text(edit));
  });
});

describe("schema 2: rejected by validate and by the JSON Schema", () => {
  it.each<Case>([
    // Dependencies.
    ["17 dependencies", manyDependencies(17)],
    ["an empty dependencies mapping", (d) => (d.dependencies = {})],
    ["no dependencies", (d) => delete d.dependencies],
    ["dependencies as a list", (d) => (d.dependencies = [{ type: "http", base_url: "http://h" }])],
    ...["Llm", "1llm", "l-lm", "a".repeat(33), "proxy"].map(
      (name): Case => [
        `the dependency name ${name}`,
        (d) => (d.dependencies[name] = { type: "http", base_url: "http://127.0.0.1:1" }),
      ],
    ),
    ["a dependency type grpc", (d) => (d.dependencies.crm.type = "grpc")],
    ["a dependency without type", (d) => delete d.dependencies.crm.type],
    [
      "base_url on an mcp_stdio dependency",
      (d) => (d.dependencies.notes = { ...NOTES, base_url: "http://x" }),
    ],
    ["start on an mcp_stdio dependency", (d) => (d.dependencies.notes = { ...NOTES, start: {} })],
    ["an mcp_stdio dependency without command", (d) => (d.dependencies.notes = { type: "mcp_stdio" })],
    ["an http dependency without base_url", (d) => delete d.dependencies.crm.base_url],
    ["base_url ftp://h", (d) => (d.dependencies.crm.base_url = "ftp://h")],
    ["url_env 9BAD", (d) => (d.dependencies.crm.url_env = "9BAD")],
    ["url_env AGENTCHAOS_X", (d) => (d.dependencies.crm.url_env = "AGENTCHAOS_X")],
    ["protocol grpc", (d) => (d.dependencies.crm.protocol = "grpc")],
    ...[[], ["metadata"], ["/a~2"], pointers(33)].map(
      (list): Case => [
        `ignore_json_fields ${JSON.stringify(list).slice(0, 30)}`,
        (d) => (d.dependencies.crm.identity = { ignore_json_fields: list }),
      ],
    ),
    ["identity without ignore_json_fields", (d) => (d.dependencies.crm.identity = {})],
    ["{port} in a base_url without start", (d) => (d.dependencies.crm.base_url = "http://127.0.0.1:{port}")],
    ["readiness without path", (d) => (d.dependencies.llm.start.readiness = {})],
    ["readiness timeout 0", (d) => (d.dependencies.llm.start.readiness.timeout_seconds = 0)],
    ["a start env value that is a number", (d) => (d.dependencies.llm.start.env = { PORT: 1 })],
    // Workload and top level.
    ["workload.proxy_url_env", (d) => (d.workload.proxy_url_env = "X")],
    ["the schema-1 key dependency", (d) => (d.dependency = { type: "http", base_url: "http://127.0.0.1:1" })],
    ["the schema-1 key fault", (d) => (d.fault = null)],
    ["a workload without command", (d) => (d.workload = { name: "agent" })],
    ["a workload env value that is a boolean", (d) => (d.workload.env = { FLAG: true })],
    ["an empty name", (d) => (d.name = "")],
    ["recovery lifo", (d) => (d.recovery = "lifo")],
    ["recovery 1", (d) => (d.recovery = 1)],
    ["checks retry_after always", (d) => (d.checks = { retry_after: "always" })],
    ["checks retry_storm max_attempts 0", (d) => (d.checks = { retry_storm: { max_attempts: 0 } })],
    ["checks retry_storm min_gap_ms -1", (d) => (d.checks = { retry_storm: { min_gap_ms: -1 } })],
    ["a max_attempts on retry_after", (d) => (d.checks = { retry_after: { max_attempts: 2 } })],
    ["an unknown check", (d) => (d.checks = { flaky: "off" })],
    [
      "jitter_ms -1",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_latency", latency_ms: 1, jitter_ms: -1 })),
    ],
    [
      "jitter_ms on http_error",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_error", status_code: 503, jitter_ms: 5 })),
    ],
    ["check dependencies empty", (d) => (d.checks = { retry_after: { dependencies: [] } })],
    ["check dependencies as a string", (d) => (d.checks = { retry_storm: { dependencies: "crm" } })],
    [
      "a check dependency that cannot be a name",
      (d) => (d.checks = { retry_after: { dependencies: ["Crm"] } }),
    ],
    ["duplicate_writes methods [GET]", (d) => (d.checks = { duplicate_writes: { methods: ["GET"] } })],
    ["duplicate_writes methods []", (d) => (d.checks = { duplicate_writes: { methods: [] } })],
    ["duplicate_writes paths [tickets]", (d) => (d.checks = { duplicate_writes: { paths: ["tickets"] } })],
    ["methods on retry_after", (d) => (d.checks = { retry_after: { methods: ["POST"] } })],
    ["checks as a string", (d) => (d.checks = "enforce")],
    ["success without exit_code", (d) => (d.success = {})],
    ["timeout_seconds 0", (d) => (d.timeout_seconds = 0)],
    ["an unknown top-level key", (d) => (d.retries = 3)],
    // Faults.
    ["33 faults", manyFaults(33)],
    ["faults as a string", (d) => (d.faults = "none")],
    ["a fault that is a number", (d) => (d.faults = [5])],
    ...["A", "-a", "a".repeat(65), "a b"].map(
      (id): Case => [`the fault id ${id}`, (d) => (d.faults[0].id = id)],
    ),
    ["a fault without dependency among two dependencies", (d) => delete d.faults[0].dependency],
    ["a fault dependency that is a number", (d) => (d.faults[0].dependency = 5)],
    ["a fault dependency that cannot be a name", (d) => (d.faults[0].dependency = "Bad-Name")],
    ["an unknown fault type", (d) => (d.faults[0].type = "http_stream_cut")],
    ["a fault without type", (d) => delete d.faults[0].type],
    ["another type's key", (d) => (d.faults[0].latency_ms = 10)],
    ["an unknown fault key", (d) => (d.faults[0].retries = 2)],
    ["a fault without trigger", (d) => delete d.faults[0].trigger],
    ["expect maybe", (d) => (d.faults[0].expect = "maybe")],
    ["a target path without /", (d) => (d.faults[0].target = { path: "tickets" })],
    ["a trigger mixing forms", (d) => (d.faults[0].trigger = { occurrence: 1, occurrences: [2] })],
    [
      "an mcp_* fault with an HTTP target",
      (d) => (d.faults[0] = fault({ dependency: "crm", type: "mcp_error" })),
    ],
    [
      "an empty MCP target",
      (d) => {
        d.dependencies.notes = NOTES;
        d.faults[0] = { dependency: "notes", type: "mcp_error", target: {}, trigger: { occurrence: 1 } };
      },
    ],
    [
      "mcp_tool_error on another method",
      (d) => {
        d.dependencies.notes = NOTES;
        d.faults[0] = {
          dependency: "notes",
          type: "mcp_tool_error",
          target: { method: "resources/read" },
          trigger: { occurrence: 1 },
        };
      },
    ],
    [
      "mcp_error code 1.5",
      (d) => {
        d.dependencies.notes = NOTES;
        d.faults[0] = {
          dependency: "notes",
          type: "mcp_error",
          target: { name: "x" },
          trigger: { occurrence: 1 },
          code: 1.5,
        };
      },
    ],
    [
      "both after_events and after_bytes",
      (d) =>
        (d.faults[0] = fault({
          dependency: "llm",
          type: "http_stream_reset",
          after_events: 1,
          after_bytes: 1,
        })),
    ],
    [
      "neither after_events nor after_bytes",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_stream_reset" })),
    ],
    [
      "http_stream_stall without stall_ms",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_stream_stall", after_events: 1 })),
    ],
    [
      "http_stream_error_event without format",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_stream_error_event", after_events: 1 })),
    ],
    [
      "http_llm_error without provider",
      (d) => (d.faults[0] = fault({ dependency: "llm", type: "http_llm_error", status_code: 500 })),
    ],
    [
      "out-of-range own keys",
      (d) => {
        d.faults = [
          fault({ dependency: "llm", type: "http_llm_error", provider: "google", status_code: 399 }),
          fault({ dependency: "llm", type: "http_stream_stall", after_events: -1, stall_ms: 0 }),
          fault({ dependency: "crm", type: "http_error", status_code: 503, expect: "maybe" }),
        ];
      },
    ],
    [
      "should_retry as a string",
      (d) =>
        (d.faults[0] = fault({
          dependency: "llm",
          type: "http_llm_error",
          provider: "openai",
          status_code: 500,
          should_retry: "yes",
        })),
    ],
    [
      "several problems at once",
      (d) => {
        d.dependencies.crm.url_env = "OPENAI_BASE_URL";
        d.faults.push({ ...d.faults[0], dependency: "nope" });
        d.recovery = 1;
        d.success = {};
      },
    ],
  ])("%s", (_, edit) => {
    expectRejectedByBoth(text(edit));
  });
});

describe("schema 2: rules only validate checks", () => {
  it.each<Case>([
    ["a duplicate url_env", (d) => (d.dependencies.crm.url_env = "OPENAI_BASE_URL")],
    ["{port} in the workload command", (d) => (d.workload.command = ["node", "{port}"])],
    ["{port} in a readiness path", (d) => (d.dependencies.llm.start.readiness.path = "/{port}")],
    ["{port} in the name", (d) => (d.name = "x-{port}")],
    [
      "{port} in start when base_url does not use it",
      (d) =>
        (d.dependencies.crm.start = {
          command: ["node", "api.mjs", "{port}"],
          readiness: { path: "/health" },
        }),
    ],
    [
      "a duplicate fault id",
      (d) => {
        d.faults = [
          { ...d.faults[0], id: "a" },
          { ...d.faults[0], id: "a" },
        ];
      },
    ],
    ["an id that clashes with a default id", (d) => (d.faults = [d.faults[0], { ...d.faults[0], id: "f1" }])],
    ["a fault on an unknown dependency", (d) => (d.faults[0].dependency = "billing")],
    [
      "an mcp_* fault on a plain http dependency",
      (d) =>
        (d.faults[0] = {
          dependency: "crm",
          type: "mcp_error",
          target: { method: "tools/call" },
          trigger: { occurrence: 1 },
        }),
    ],
    [
      "an http_* fault on an mcp_stdio dependency",
      (d) => {
        d.dependencies.notes = NOTES;
        d.faults[0] = fault({
          dependency: "notes",
          type: "http_error",
          target: { method: "tools/call" },
          status_code: 503,
        });
      },
    ],
    [
      "an MCP target on a plain http dependency",
      (d) =>
        (d.faults[0] = fault({
          dependency: "crm",
          type: "http_error",
          target: { method: "tools/call" },
          status_code: 503,
        })),
    ],
    [
      "an HTTP target on a protocol: mcp dependency",
      (d) => {
        d.dependencies.crm.protocol = "mcp";
        d.faults[0] = fault({ dependency: "crm", type: "http_error", status_code: 503 });
      },
    ],
    [
      "probability 0.1234567",
      (d) =>
        (d.faults[0].trigger = {
          probability: 0.1234567,
          seed: 1,
          window: { start_occurrence: 1, end_occurrence: 5 },
        }),
    ],
    ["occurrences [3, 2]", (d) => (d.faults[0].trigger = { occurrences: [3, 2] })],
    [
      "a check dependency the scenario does not have",
      (d) => (d.checks = { retry_after: { dependencies: ["billing"] } }),
    ],
  ])("%s", (_, edit) => {
    expectLeftToValidate(text(edit));
  });

  it("schema_version 2.0 (a YAML float)", () => {
    const written = text(() => {}).replace("schema_version: 2\n", "schema_version: 2.0\n");
    expect(written).toContain("schema_version: 2.0\n");
    expectLeftToValidate(written);
  });
});
