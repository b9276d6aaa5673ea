import { describe, it } from "vitest";
import { edited, textOf } from "../scenario/scenario-data.js";
import { expectAcceptedByBoth, expectRejectedByBoth } from "./schema-harness.js";

describe("a corruption fault without a pointer: validate and the JSON Schema agree", () => {
  it("accepts an http_corrupt without a pointer (the first leaf value)", () => {
    expectAcceptedByBoth(
      textOf(
        edited((d) => {
          d.faults = [
            {
              dependency: "llm",
              type: "http_corrupt",
              target: { path: "/v1/*" },
              trigger: { occurrence: 1 },
              sinks: ["stdout"],
            },
          ];
        }),
      ),
    );
  });

  it("rejects an mcp_corrupt_result without a pointer", () => {
    expectRejectedByBoth(
      textOf(
        edited((d) => {
          d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
          d.faults = [
            {
              dependency: "notes",
              type: "mcp_corrupt_result",
              target: { method: "tools/call" },
              trigger: { occurrence: 1 },
            },
          ];
        }),
      ),
    );
  });
});
