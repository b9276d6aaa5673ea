import { describe, expect, it } from "vitest";
import { edited, parseScenarioData, problemMessages } from "./scenario-data.js";

const llmFault = (own: Record<string, unknown>) =>
  edited((d) => {
    d.faults = [{ dependency: "llm", target: { path: "/v1/*" }, trigger: { occurrence: 1 }, ...own }];
  });

describe("schema 2: llm_misbehave and http_auth_expired keys", () => {
  it("loads llm_misbehave with its provider and kind", () => {
    const scenario = parseScenarioData(
      llmFault({ type: "llm_misbehave", provider: "openai_responses", kind: "length_mid_tool" }),
    );
    expect(scenario.faults[0]).toMatchObject({
      type: "llm_misbehave",
      provider: "openai_responses",
      kind: "length_mid_tool",
      expect: "recover",
    });
  });

  it("defaults http_auth_expired's provider to generic and its expectation to recover", () => {
    const scenario = parseScenarioData(llmFault({ type: "http_auth_expired" }));
    expect(scenario.faults[0]).toMatchObject({
      type: "http_auth_expired",
      provider: "generic",
      expect: "recover",
    });
  });

  it("names the accepted values of an unknown provider or kind, and requires both", () => {
    expect(problemMessages(llmFault({ type: "llm_misbehave", provider: "google", kind: "sulk" }))).toEqual([
      'faults[0].provider: expected "openai", "openai_responses" or "anthropic", got "google"',
      'faults[0].kind: expected "tool_args_invalid", "unknown_tool", "empty", "refusal", "length_mid_tool", "content_filter" or "missing_finish", got "sulk"',
    ]);
    expect(problemMessages(llmFault({ type: "llm_misbehave" })).length).toBe(2);
    expect(problemMessages(llmFault({ type: "http_auth_expired", provider: "google" }))).toEqual([
      'faults[0].provider: expected "openai", "anthropic" or "generic", got "google"',
    ]);
  });
});
