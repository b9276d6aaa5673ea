import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fixedPorts } from "../../src/runtime/fixed-ports.js";

describe("fixed ports of a scenario", () => {
  it("takes schema 1's dependency port, and the scheme's default when none is written", () => {
    expect(fixedPorts(parse("dependency:\n  base_url: http://127.0.0.1:19103\n"))).toEqual([19103]);
    expect(fixedPorts(parse("dependency:\n  base_url: http://localhost/api\n"))).toEqual([80]);
    expect(fixedPorts(parse("dependency:\n  base_url: https://user:pw@example.test\n"))).toEqual([443]);
  });

  it("takes every schema-2 dependency without {port}, once each", () => {
    const scenario = parse(`
dependencies:
  llm: {type: http, base_url: "http://127.0.0.1:{port}/v1"}
  crm: {type: http, base_url: "http://127.0.0.1:8080"}
  erp: {type: http, base_url: "http://127.0.0.1:8080/erp"}
  notes: {type: mcp_stdio, command: [node, notes.mjs]}
`);
    expect(fixedPorts(scenario)).toEqual([8080]);
  });

  it("finds none in a scenario that does not parse as one", () => {
    expect(fixedPorts(null)).toEqual([]);
    expect(fixedPorts("text")).toEqual([]);
    expect(fixedPorts({ dependency: { base_url: "not a url" } })).toEqual([]);
  });
});
