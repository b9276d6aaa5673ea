import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import the package by its name, as a user's project would.
  resolve: { alias: { "agent-chaos": fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Most test files wait on real processes and sockets, not on the CPU: two files at a time keep
    // a 2-core machine busy while the timing of the examples stays reliable (docs/performance.md).
    maxWorkers: 2,
    reporters: ["default", "./test/reporters/plain-summary.ts"],
  },
});
