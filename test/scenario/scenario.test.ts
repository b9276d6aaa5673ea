import { describe, expect, it } from "vitest";
import { baseScenario, edited, parseScenarioData, problemMessages, problemPaths } from "./scenario-data.js";

describe("schema 2: the base scenario", () => {
  it("loads with its dependencies in file order, defaults applied and {port} kept as written", () => {
    const scenario = parseScenarioData(baseScenario());
    expect(scenario.schemaVersion).toBe(2);
    expect(scenario.dependencies.map((d) => d.name)).toEqual(["llm", "crm"]);
    const llm = scenario.dependencies[0];
    expect(llm).toMatchObject({
      type: "http",
      baseUrl: "http://127.0.0.1:{port}/v1",
      urlEnv: "OPENAI_BASE_URL",
      protocol: "http",
      ignoreJsonFields: [],
      usesPortPlaceholder: true,
    });
    if (llm?.type !== "http") throw new Error("expected http");
    expect(llm.start?.readiness.timeoutSeconds).toBe(15);
    expect(scenario.recovery).toBe("chain");
    expect(scenario.checks).toEqual({
      retry_after: { mode: "enforce", dependencies: null },
      retry_storm: { mode: "report", maxAttempts: 5, minGapMs: 100, dependencies: null },
      duplicate_writes: { mode: "report", dependencies: null, methods: ["POST", "PATCH"], paths: null },
      fail_fast: { mode: "off", maxMs: 30000 },
      cancellation: { mode: "off" },
    });
    expect(scenario.faults).toEqual([
      {
        id: "f1",
        dependency: "crm",
        type: "http_error",
        target: { kind: "http", method: null, path: "/tickets/*" },
        trigger: { kind: "occurrence_schedule", occurrences: [1, 2] },
        expect: "recover",
        statusCode: 503,
      },
    ]);
  });

  it("defaults a fault's dependency when the scenario has exactly one", () => {
    const scenario = parseScenarioData(
      edited((d) => {
        delete d.dependencies.llm;
        delete d.faults[0].dependency;
      }),
    );
    expect(scenario.faults[0]?.dependency).toBe("crm");
  });

  it("treats absent, null and empty faults as a baseline", () => {
    for (const faults of [undefined, null, []]) {
      const data = edited((d) => {
        d.faults = faults;
        if (faults === undefined) delete d.faults;
      });
      expect(parseScenarioData(data).faults).toEqual([]);
    }
  });
});

describe("schema 2: dependencies", () => {
  it("accepts 16 dependencies and rejects 17", () => {
    const many = (count: number) =>
      edited((d) => {
        d.dependencies = Object.fromEntries(
          Array.from({ length: count }, (_, i) => [
            `dep${i}`,
            { type: "http", base_url: `http://127.0.0.1:${9000 + i}` },
          ]),
        );
        d.faults = [];
      });
    expect(parseScenarioData(many(16)).dependencies).toHaveLength(16);
    expect(problemPaths(many(17))).toEqual(["dependencies"]);
  });

  it("rejects an empty dependencies mapping and a missing one", () => {
    expect(problemPaths(edited((d) => (d.dependencies = {})))).toContain("dependencies");
    expect(problemPaths(edited((d) => delete d.dependencies))).toContain("dependencies");
  });

  it.each(["Llm", "1llm", "l-lm", "a".repeat(33), "proxy"])("rejects the dependency name %s", (name) => {
    const data = edited((d) => {
      d.dependencies[name] = { type: "http", base_url: "http://127.0.0.1:1" };
    });
    expect(problemPaths(data)).toEqual([`dependencies.${name}`]);
  });

  it("accepts a 32-character name", () => {
    const name = `a${"b".repeat(31)}`;
    const data = edited((d) => {
      d.dependencies[name] = { type: "http", base_url: "http://127.0.0.1:1" };
    });
    expect(parseScenarioData(data).dependencies.map((dep) => dep.name)).toContain(name);
  });

  it("rejects an unknown dependency type", () => {
    expect(problemPaths(edited((d) => (d.dependencies.crm.type = "grpc")))).toEqual([
      "dependencies.crm.type",
    ]);
  });

  it("accepts an mcp_stdio dependency with command, cwd and env, and rejects base_url on it", () => {
    const ok = edited((d) => {
      d.dependencies.notes = {
        type: "mcp_stdio",
        command: ["node", "notes.mjs"],
        cwd: "..",
        env: { A: "1" },
      };
    });
    expect(parseScenarioData(ok).dependencies[2]).toEqual({
      name: "notes",
      type: "mcp_stdio",
      command: ["node", "notes.mjs"],
      cwd: "/scenarios",
      env: { A: "1" },
    });
    const bad = edited((d) => {
      d.dependencies.notes = { type: "mcp_stdio", command: ["node"], base_url: "http://x" };
    });
    expect(problemPaths(bad)).toEqual(["dependencies.notes.base_url"]);
  });

  it("rejects url_env values that are duplicated, malformed or start with AGENTCHAOS_", () => {
    expect(problemPaths(edited((d) => (d.dependencies.crm.url_env = "OPENAI_BASE_URL")))).toEqual([
      "dependencies.crm.url_env",
    ]);
    expect(problemPaths(edited((d) => (d.dependencies.crm.url_env = "9BAD")))).toEqual([
      "dependencies.crm.url_env",
    ]);
    expect(problemPaths(edited((d) => (d.dependencies.crm.url_env = "AGENTCHAOS_X")))).toEqual([
      "dependencies.crm.url_env",
    ]);
    expect(
      parseScenarioData(edited((d) => (d.dependencies.crm.url_env = "CRM_URL"))).dependencies[1],
    ).toMatchObject({
      urlEnv: "CRM_URL",
    });
  });

  it("accepts protocol mcp and http, rejects anything else", () => {
    const asMcp = edited((d) => {
      d.dependencies.crm.protocol = "mcp";
      d.faults = [];
    });
    expect(parseScenarioData(asMcp).dependencies[1]).toMatchObject({ protocol: "mcp" });
    expect(problemPaths(edited((d) => (d.dependencies.crm.protocol = "grpc")))).toContain(
      "dependencies.crm.protocol",
    );
  });

  it("accepts 1 to 32 JSON Pointers in identity.ignore_json_fields and rejects invalid ones", () => {
    const ok = edited(
      (d) => (d.dependencies.crm.identity = { ignore_json_fields: ["/metadata/attempt", "/a~1b/0"] }),
    );
    expect(parseScenarioData(ok).dependencies[1]).toMatchObject({
      ignoreJsonFields: ["/metadata/attempt", "/a~1b/0"],
    });
    for (const pointers of [[], ["metadata"], ["/a~2"], Array.from({ length: 33 }, (_, i) => `/f${i}`)]) {
      const bad = edited((d) => (d.dependencies.crm.identity = { ignore_json_fields: pointers }));
      expect(problemPaths(bad)[0]).toMatch(/^dependencies\.crm\.identity\.ignore_json_fields/);
    }
    expect(
      parseScenarioData(
        edited(
          (d) =>
            (d.dependencies.crm.identity = {
              ignore_json_fields: Array.from({ length: 32 }, (_, i) => `/f${i}`),
            }),
        ),
      ).dependencies[1],
    ).toBeDefined();
  });

  it("uses the schema-2 readiness default of 15 s and keeps an explicit one", () => {
    const scenario = parseScenarioData(
      edited((d) => (d.dependencies.llm.start.readiness.timeout_seconds = 2)),
    );
    const llm = scenario.dependencies[0];
    expect(llm?.type === "http" && llm.start?.readiness.timeoutSeconds).toBe(2);
  });
});

describe("schema 2: {port}", () => {
  it("rejects {port} in a base_url without start", () => {
    expect(problemPaths(edited((d) => (d.dependencies.crm.base_url = "http://127.0.0.1:{port}")))).toEqual([
      "dependencies.crm.base_url",
    ]);
  });

  it("rejects {port} outside base_url, start.command and start.env", () => {
    expect(problemPaths(edited((d) => (d.workload.command = ["node", "{port}"])))).toEqual([
      "workload.command[1]",
    ]);
    expect(problemPaths(edited((d) => (d.dependencies.llm.start.readiness.path = "/{port}")))).toEqual([
      "dependencies.llm.start.readiness.path",
    ]);
    expect(problemPaths(edited((d) => (d.name = "x-{port}")))).toEqual(["name"]);
  });

  it("rejects {port} in start when base_url does not use it", () => {
    const data = edited((d) => {
      d.dependencies.crm.start = { command: ["node", "api.mjs", "{port}"], readiness: { path: "/health" } };
    });
    expect(problemPaths(data)).toEqual(["dependencies.crm.start.command[2]"]);
  });

  it("accepts {port} inside a longer string", () => {
    const scenario = parseScenarioData(
      edited((d) => (d.dependencies.llm.start.command = ["node", "--listen=127.0.0.1:{port}"])),
    );
    const llm = scenario.dependencies[0];
    expect(llm?.type === "http" && llm.start?.command[1]).toBe("--listen=127.0.0.1:{port}");
  });
});

describe("schema 2: faults", () => {
  it("accepts 32 faults and rejects 33", () => {
    const make = (count: number) =>
      edited((d) => {
        d.faults = Array.from({ length: count }, () => structuredClone(d.faults[0]));
      });
    expect(
      parseScenarioData(make(32))
        .faults.map((f) => f.id)
        .at(-1),
    ).toBe("f32");
    expect(problemPaths(make(33))).toEqual(["faults"]);
  });

  it("rejects duplicate fault ids, explicit or defaulted", () => {
    const data = edited((d) => {
      d.faults = [
        { ...d.faults[0], id: "a" },
        { ...d.faults[0], id: "a" },
      ];
    });
    expect(problemPaths(data)).toEqual(["faults[1].id"]);
    const clash = edited((d) => {
      d.faults = [d.faults[0], { ...d.faults[0], id: "f1" }];
    });
    expect(problemPaths(clash)).toEqual(["faults[1].id"]);
  });

  it.each(["A", "-a", "a".repeat(65), "a b"])("rejects the fault id %s", (id) => {
    expect(problemPaths(edited((d) => (d.faults[0].id = id)))).toEqual(["faults[0].id"]);
  });

  it("requires dependency with two or more dependencies and rejects an unknown one", () => {
    expect(problemPaths(edited((d) => delete d.faults[0].dependency))).toEqual(["faults[0]"]);
    const unknown = problemMessages(edited((d) => (d.faults[0].dependency = "billing")));
    expect(unknown).toEqual([
      'faults[0].dependency: expected the name of a dependency (llm, crm), got "billing"',
    ]);
  });

  it("rejects a fault type that does not fit its dependency", () => {
    const mcpOnHttp = edited((d) => {
      d.faults[0] = {
        dependency: "crm",
        type: "mcp_error",
        target: { path: "/x" },
        trigger: { occurrence: 1 },
      };
    });
    expect(problemPaths(mcpOnHttp)).toContain("faults[0].type");
    const httpOnStdio = edited((d) => {
      d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
      d.faults[0] = {
        dependency: "notes",
        type: "http_error",
        target: { method: "tools/call" },
        trigger: { occurrence: 1 },
        status_code: 503,
      };
    });
    expect(problemPaths(httpOnStdio)).toEqual(["faults[0].type"]);
  });

  it("takes an MCP target on MCP dependencies, with at least one of method and name", () => {
    const ok = edited((d) => {
      d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
      d.faults[0] = {
        dependency: "notes",
        type: "mcp_tool_error",
        target: { method: "tools/call", name: "add_*" },
        trigger: { occurrence: 1 },
      };
    });
    expect(parseScenarioData(ok).faults[0]).toMatchObject({
      target: { kind: "mcp", method: "tools/call", name: "add_*" },
    });
    const empty = edited((d) => {
      d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
      d.faults[0] = { dependency: "notes", type: "mcp_error", target: {}, trigger: { occurrence: 1 } };
    });
    expect(problemPaths(empty)).toEqual(["faults[0].target"]);
    const toolErrorElsewhere = edited((d) => {
      d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
      d.faults[0] = {
        dependency: "notes",
        type: "mcp_tool_error",
        target: { method: "resources/read" },
        trigger: { occurrence: 1 },
      };
    });
    expect(problemPaths(toolErrorElsewhere)).toEqual(["faults[0].target.method"]);
  });

  it("lets http_* faults on a protocol: mcp dependency take an MCP target", () => {
    const data = edited((d) => {
      d.dependencies.crm.protocol = "mcp";
      d.faults[0] = {
        dependency: "crm",
        type: "http_error",
        target: { method: "tools/call" },
        trigger: { occurrence: 1 },
        status_code: 503,
      };
    });
    expect(parseScenarioData(data).faults[0]).toMatchObject({
      type: "http_error",
      target: { kind: "mcp", method: "tools/call", name: null },
    });
  });

  it("reads every new fault type's own keys", () => {
    const data = edited((d) => {
      d.faults = [
        {
          dependency: "llm",
          type: "http_llm_error",
          target: { path: "/v1/*" },
          trigger: { occurrence: 1 },
          provider: "openai",
          status_code: 429,
          retry_after_ms: 250,
          should_retry: true,
        },
        {
          dependency: "llm",
          type: "http_stream_truncate",
          target: { path: "/v1/*" },
          trigger: { occurrence: 2 },
          after_events: 3,
        },
        {
          dependency: "llm",
          type: "http_stream_stall",
          target: { path: "/v1/*" },
          trigger: { occurrence: 3 },
          after_bytes: 0,
          stall_ms: 500,
        },
        {
          dependency: "llm",
          type: "http_stream_error_event",
          target: { path: "/v1/*" },
          trigger: { occurrence: 4 },
          after_events: 0,
          format: "anthropic",
          expect: "handle",
        },
        {
          dependency: "crm",
          type: "http_response_lost",
          target: { method: "POST", path: "/tickets" },
          trigger: { occurrence: 1 },
          expect: "give_up",
        },
      ];
    });
    expect(parseScenarioData(data).faults).toEqual([
      expect.objectContaining({
        type: "http_llm_error",
        provider: "openai",
        statusCode: 429,
        retryAfterSeconds: null,
        retryAfterMs: 250,
        shouldRetry: true,
      }),
      expect.objectContaining({ type: "http_stream_truncate", afterEvents: 3, afterBytes: null }),
      expect.objectContaining({ type: "http_stream_stall", afterEvents: null, afterBytes: 0, stallMs: 500 }),
      expect.objectContaining({
        type: "http_stream_error_event",
        afterEvents: 0,
        format: "anthropic",
        expect: "handle",
      }),
      expect.objectContaining({
        type: "http_response_lost",
        expect: "give_up",
        target: { kind: "http", method: "POST", path: "/tickets" },
      }),
    ]);
  });

  it("requires exactly one of after_events and after_bytes on stream faults", () => {
    const both = edited((d) => {
      d.faults[0] = {
        dependency: "llm",
        type: "http_stream_reset",
        target: { path: "/x" },
        trigger: { occurrence: 1 },
        after_events: 1,
        after_bytes: 1,
      };
    });
    const neither = edited((d) => {
      d.faults[0] = {
        dependency: "llm",
        type: "http_stream_reset",
        target: { path: "/x" },
        trigger: { occurrence: 1 },
      };
    });
    expect(problemPaths(both)).toEqual(["faults[0]"]);
    expect(problemPaths(neither)).toEqual(["faults[0]"]);
  });

  it("rejects out-of-range own keys and an unknown expect", () => {
    const bad = edited((d) => {
      d.faults = [
        {
          dependency: "llm",
          type: "http_llm_error",
          target: { path: "/x" },
          trigger: { occurrence: 1 },
          provider: "google",
          status_code: 399,
        },
        {
          dependency: "llm",
          type: "http_stream_stall",
          target: { path: "/x" },
          trigger: { occurrence: 1 },
          after_events: -1,
          stall_ms: 0,
        },
        {
          dependency: "crm",
          type: "http_error",
          target: { path: "/x" },
          trigger: { occurrence: 1 },
          status_code: 503,
          expect: "maybe",
        },
      ];
    });
    expect(problemPaths(bad)).toEqual([
      "faults[0].provider",
      "faults[0].status_code",
      "faults[1].after_events",
      "faults[1].stall_ms",
      "faults[2].expect",
    ]);
  });

  it("positions a probability trigger's problems under its own fault", () => {
    const data = edited((d) => {
      d.faults[0].trigger = {
        probability: 0.1234567,
        seed: 1,
        window: { start_occurrence: 1, end_occurrence: 5 },
      };
    });
    expect(problemMessages(data)).toEqual([
      "faults[0].trigger.probability: expected an unquoted number greater than 0 and at most 1, with at most six decimal places, got 7 decimal places",
    ]);
  });
});

describe("schema 2: top level", () => {
  it("names the schema-2 key for the schema-1 keys dependency, fault and workload.proxy_url_env", () => {
    const data = edited((d) => {
      d.dependency = { type: "http", base_url: "http://127.0.0.1:1" };
      d.fault = null;
      d.workload.proxy_url_env = "X";
    });
    expect(problemMessages(data)).toEqual([
      'workload.proxy_url_env: unknown key "proxy_url_env"; schema 2 sets url_env on each dependency instead (dependencies.<name>.url_env)',
      'dependency: unknown key "dependency"; schema 2 names its dependencies under dependencies (a mapping of name to dependency)',
      'fault: unknown key "fault"; schema 2 lists its faults under faults (a list; each fault names its dependency)',
    ]);
  });

  it("accepts recovery chain and fifo and rejects anything else", () => {
    expect(parseScenarioData(edited((d) => (d.recovery = "fifo"))).recovery).toBe("fifo");
    expect(problemPaths(edited((d) => (d.recovery = "lifo")))).toEqual(["recovery"]);
  });

  it("reads checks as modes or mappings with parameters", () => {
    const scenario = parseScenarioData(
      edited(
        (d) =>
          (d.checks = {
            retry_after: "report",
            retry_storm: { mode: "enforce", max_attempts: 3, min_gap_ms: 0 },
            duplicate_writes: "off",
          }),
      ),
    );
    expect(scenario.checks).toEqual({
      retry_after: { mode: "report", dependencies: null },
      retry_storm: { mode: "enforce", maxAttempts: 3, minGapMs: 0, dependencies: null },
      duplicate_writes: { mode: "off", dependencies: null, methods: ["POST", "PATCH"], paths: null },
      fail_fast: { mode: "off", maxMs: 30000 },
      cancellation: { mode: "off" },
    });
    expect(problemPaths(edited((d) => (d.checks = { retry_after: "always" })))).toEqual([
      "checks.retry_after",
    ]);
    expect(problemPaths(edited((d) => (d.checks = { retry_storm: { max_attempts: 0 } })))).toEqual([
      "checks.retry_storm.max_attempts",
    ]);
    expect(problemPaths(edited((d) => (d.checks = { flaky: "off" })))).toEqual(["checks.flaky"]);
  });

  it("scopes checks to dependencies, and duplicate_writes to methods and paths", () => {
    const scenario = parseScenarioData(
      edited(
        (d) =>
          (d.checks = {
            retry_after: { dependencies: ["crm"] },
            retry_storm: { mode: "enforce", dependencies: ["llm", "crm"] },
            duplicate_writes: {
              mode: "enforce",
              dependencies: ["crm"],
              methods: ["post", "PUT"],
              paths: ["/tickets/*"],
            },
          }),
      ),
    );
    expect(scenario.checks).toEqual({
      retry_after: { mode: "enforce", dependencies: ["crm"] },
      retry_storm: { mode: "enforce", maxAttempts: 5, minGapMs: 100, dependencies: ["llm", "crm"] },
      duplicate_writes: {
        mode: "enforce",
        dependencies: ["crm"],
        methods: ["POST", "PUT"],
        paths: ["/tickets/*"],
      },
      fail_fast: { mode: "off", maxMs: 30000 },
      cancellation: { mode: "off" },
    });
  });

  it("leaves fail_fast and cancellation off unless listed; listed without a mode, they report", () => {
    const listed = parseScenarioData(
      edited((d) => (d.checks = { fail_fast: { max_ms: 5000 }, cancellation: {} })),
    );
    expect(listed.checks.fail_fast).toEqual({ mode: "report", maxMs: 5000 });
    expect(listed.checks.cancellation).toEqual({ mode: "report" });
    const enforced = parseScenarioData(
      edited((d) => (d.checks = { fail_fast: "enforce", cancellation: "enforce" })),
    );
    expect(enforced.checks.fail_fast).toEqual({ mode: "enforce", maxMs: 30000 });
    expect(enforced.checks.cancellation).toEqual({ mode: "enforce" });
    expect(problemPaths(edited((d) => (d.checks = { fail_fast: { max_ms: 0 } })))).toEqual([
      "checks.fail_fast.max_ms",
    ]);
    expect(problemPaths(edited((d) => (d.checks = { cancellation: { max_ms: 10 } })))).toEqual([
      "checks.cancellation.max_ms",
    ]);
  });

  it("positions each bad check scope value", () => {
    expect(
      problemMessages(
        edited(
          (d) =>
            (d.checks = {
              retry_after: { dependencies: ["crm", "billing"] },
              retry_storm: { dependencies: [] },
              duplicate_writes: { methods: ["POST", "GET"], paths: ["tickets"] },
            }),
        ),
      ),
    ).toEqual([
      'checks.retry_after.dependencies[1]: expected the name of a dependency (llm, crm), got "billing"',
      "checks.retry_storm.dependencies: expected a list of 1 to 16 dependency names, got an empty list",
      'checks.duplicate_writes.methods[1]: expected POST, PUT, PATCH or DELETE (GET changes nothing by its contract), got "GET"',
      "checks.duplicate_writes.paths[0]: expected a path that begins with / and has no ?, [ or ], got a string",
    ]);
  });

  it("lists every problem of a file at once", () => {
    const data = edited((d) => {
      d.dependencies.crm.url_env = "OPENAI_BASE_URL";
      d.faults.push({ ...d.faults[0], dependency: "nope" });
      d.recovery = 1;
      d.success = {};
    });
    expect(problemPaths(data)).toEqual([
      "dependencies.crm.url_env",
      "faults[1].dependency",
      "success.exit_code",
      "recovery",
    ]);
  });
});
