import type { FaultExecutor, FaultOf } from "./types.js";

/** `http_malformed_json`: answer 200 with JSON whose closing brace is missing on purpose. */
export const malformedJson: FaultExecutor<FaultOf<"http_malformed_json">> = {
  parameters: () => ({}),
  execute(_fault, context) {
    context.respond(
      {
        status: 200,
        headers: { "X-Agent-Chaos-Fault": "http_malformed_json", "Content-Type": "application/json" },
        body: '{"error":"injected by Agent Chaos"',
      },
      "injected_malformed_json",
    );
  },
};
