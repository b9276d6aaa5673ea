import { describe, expect, it } from "vitest";
import { looksLikeScenario } from "../../src/suite/scenario-candidate.js";

describe("which YAML found in a folder is a scenario", () => {
  it("is a top-level mapping with a schema_version key, whatever its value", () => {
    expect(looksLikeScenario("schema_version: 2\nname: x\n")).toBe(true);
    expect(looksLikeScenario("name: x\nschema_version: nine\n")).toBe(true);
    expect(looksLikeScenario("# a comment\n---\nschema_version: 1\n")).toBe(true);
  });

  it("is not a fake model's script, a CI file, an empty file or a nested schema_version", () => {
    expect(looksLikeScenario("- when: {user_contains: weather}\n  answer: {text: sunny}\n")).toBe(false);
    expect(looksLikeScenario("jobs:\n  test:\n    schema_version: 2\n")).toBe(false);
    expect(looksLikeScenario("")).toBe(false);
    expect(looksLikeScenario("just text\n")).toBe(false);
  });

  it("keeps a broken YAML file that has a schema_version line, so its problems get reported", () => {
    expect(looksLikeScenario("schema_version: 2\nname: [\n")).toBe(true);
    expect(looksLikeScenario("a: [\n")).toBe(false);
  });
});
