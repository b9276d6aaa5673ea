import { describe, expect, it } from "vitest";
import { endedBeforeReady, notReadyInTime, polledRequest } from "../../src/runtime/readiness-failure.js";

const OUTPUT = "its output is in dependencies/llm.stdout.log and dependencies/llm.stderr.log";

describe("the reason of a dependency that did not become ready", () => {
  it("names the request polled, joining the base_url path and the readiness path, without a query", () => {
    expect(polledRequest("", "/health")).toBe("GET /health");
    expect(polledRequest("/", "/health?token=secret")).toBe("GET /health");
    expect(polledRequest("/v1/", "/health")).toBe(
      "GET /v1/health (base_url path /v1 + readiness.path /health)",
    );
  });

  it("says how often it polled, what the last poll got and that the process still runs", () => {
    const failure = { dependency: "llm", basePath: "/v1", readinessPath: "/health" };
    expect(notReadyInTime({ ...failure, log: { polls: 290, last: { status: 404 } } }, "15")).toBe(
      `dependency llm did not become ready within 15s: polled GET /v1/health (base_url path /v1 + readiness.path /health) 290 times, last answer: status 404; the process is still running; ${OUTPUT}`,
    );
    expect(
      notReadyInTime({ ...failure, basePath: "", log: { polls: 1, last: { error: "timeout" } } }, "0.5"),
    ).toBe(
      `dependency llm did not become ready within 0.5s: polled GET /health once, last answer: none within 0.5s; the process is still running; ${OUTPUT}`,
    );
  });

  it("says how the process ended and when", () => {
    const failure = { dependency: "llm", basePath: "", readinessPath: "/health" };
    expect(endedBeforeReady({ ...failure, log: { polls: 3, last: { error: "ECONNREFUSED" } } }, 7, 180)).toBe(
      `dependency llm exited with code 7 after 0.18s, before becoming ready: polled GET /health 3 times, last answer: connection refused; ${OUTPUT}`,
    );
    expect(endedBeforeReady({ ...failure, log: { polls: 0, last: null } }, -9, 1500)).toBe(
      `dependency llm was killed by SIGKILL after 1.50s, before becoming ready: no poll of GET /health completed; ${OUTPUT}`,
    );
    expect(
      endedBeforeReady({ ...failure, log: { polls: 2, last: { error: "ECONNRESET" } } }, 1, 20),
    ).toContain("last answer: connection failed (ECONNRESET)");
  });
});
