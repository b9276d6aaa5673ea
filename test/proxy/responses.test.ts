import { describe, expect, it } from "vitest";
import {
  HEAD_TOO_LARGE,
  MALFORMED_REQUEST,
  METHOD_NOT_ALLOWED,
  REQUEST_TOO_LARGE,
  UPSTREAM_TOO_LARGE,
  upstreamFailed,
} from "../../src/proxy/responses.js";

const JSON_TYPE = { "Content-Type": "application/json" };

describe("the proxy's own answers", () => {
  it("are JSON bodies with an error and the status the docs name", () => {
    expect([REQUEST_TOO_LARGE, UPSTREAM_TOO_LARGE, MALFORMED_REQUEST, HEAD_TOO_LARGE]).toEqual([
      { status: 413, headers: JSON_TYPE, body: '{"error": "request body exceeds proxy limit"}' },
      { status: 502, headers: JSON_TYPE, body: '{"error": "upstream body exceeds proxy limit"}' },
      { status: 400, headers: JSON_TYPE, body: '{"error": "malformed request"}' },
      { status: 431, headers: JSON_TYPE, body: '{"error": "request head exceeds proxy limit"}' },
    ]);
  });

  it("name the allowed methods for a method the proxy does not forward", () => {
    expect(METHOD_NOT_ALLOWED).toEqual({
      status: 405,
      headers: { ...JSON_TYPE, Allow: "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT" },
      body: '{"error": "method not supported by proxy"}',
    });
  });

  it("name an upstream failure by its class only, never by its message", () => {
    const failed = upstreamFailed(
      Object.assign(new Error("secret-token-123 in message"), { code: "ECONNREFUSED" }),
    );
    expect(failed.status).toBe(502);
    expect(failed.body).toMatch(/^\{"error": "upstream request failed", "detail": "[A-Za-z]+"\}$/);
    expect(failed.body).not.toContain("secret-token-123");
  });
});
