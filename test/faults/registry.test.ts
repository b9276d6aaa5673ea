import { describe, expect, it } from "vitest";
import { armFault, FAULT_EXECUTORS } from "../../src/faults/registry.js";
import { HTTP_FAULT_TYPES } from "../../src/scenario/types.js";
import { legacyFaults, schedule, target } from "../helpers/proxy-harness.js";

describe("fault registry", () => {
  it("has an executor for every HTTP fault type of schema 2 (schema 1's five included)", () => {
    expect(Object.keys(FAULT_EXECUTORS).sort()).toEqual([...HTTP_FAULT_TYPES].sort());
  });

  it("reports each fault's FAULT_INJECTED parameters as integers", () => {
    expect(armFault(legacyFaults.latency(250, schedule(1))).parameters).toEqual({ latency_ms: 250 });
    expect(armFault(legacyFaults.error(503, schedule(1))).parameters).toEqual({ status_code: 503 });
    expect(armFault(legacyFaults.rateLimit(0, schedule(1))).parameters).toEqual({ retry_after_seconds: 0 });
    expect(armFault(legacyFaults.malformedJson(schedule(1))).parameters).toEqual({});
    expect(armFault(legacyFaults.disconnect(schedule(1))).parameters).toEqual({});
  });

  it("gives every armed fault its own occurrence counter", () => {
    const fault = legacyFaults.error(503, schedule(2));
    const a = armFault(fault);
    const b = armFault(fault);
    expect([a.decide(), a.decide(), a.decide()]).toEqual([false, true, false]);
    expect([b.decide(), b.decide()]).toEqual([false, true]);
  });
});

describe("target matching", () => {
  const matches = (path: string, method: string | null, requestMethod: string, requestPath: string) =>
    armFault(legacyFaults.error(503, schedule(1), target(path, method))).matches({
      method: requestMethod,
      path: requestPath,
    });

  it("lets `*` match any run of characters, `/` included", () => {
    expect(matches("/customer/*", null, "GET", "/customer/123")).toBe(true);
    expect(matches("/customer/*", null, "GET", "/customer/1/x")).toBe(true);
    expect(matches("/customer/*", null, "GET", "/customer/")).toBe(true);
    expect(matches("/customer/*", null, "GET", "/customers/1")).toBe(false);
    expect(matches("/a/*/c", null, "GET", "/a/b/b/c")).toBe(true);
  });

  it("compares paths case-sensitively and literally apart from `*`", () => {
    expect(matches("/customer/*", null, "GET", "/Customer/1")).toBe(false);
    expect(matches("/v1.0/x", null, "GET", "/v1a0/x")).toBe(false);
    expect(matches("/v1.0/x", null, "GET", "/v1.0/x")).toBe(true);
  });

  it("compares methods case-insensitively and matches every method when none is given", () => {
    expect(matches("/x", "get", "GET", "/x")).toBe(true);
    expect(matches("/x", "GET", "post", "/x")).toBe(false);
    expect(matches("/x", null, "DELETE", "/x")).toBe(true);
  });

  it("is given the path without its query, which never takes part", () => {
    expect(matches("/search", null, "GET", "/search")).toBe(true);
    expect(matches("/search", null, "GET", "/search?q=1")).toBe(false);
  });
});
