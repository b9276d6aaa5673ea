import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The tests reach nothing beyond loopback, and the one test that trusts a certificate names its
 * own. A machine-wide NODE_EXTRA_CA_CERTS makes every Node process parse that bundle as it starts
 * (about 60 ms of CPU on a 2-core machine, more than Node's whole start without it), and the tests
 * start well over a thousand processes: they run without it. The packed-package test gives it back
 * to npm, as a user's shell would (CONTRIBUTING.md, "Testing").
 */
const shellCaCerts = process.env.NODE_EXTRA_CA_CERTS ?? "";
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * The files that keep a fresh worker of their own: those that look at the worker's own child
 * processes, interrupt a run or time signals against a child's start-up, and those that fake the
 * global timers around real sockets. The files that run the built CLI on whole scenarios share
 * their workers like the rest: each run is a process of its own.
 */
const ISOLATED_FILES = [
  "test/e2e/cleanup.test.ts",
  "test/e2e/sigkill.test.ts",
  "test/e2e/suite-interrupt.test.ts",
  "test/e2e/explore-interrupt.test.ts",
  "test/e2e/disk-full.test.ts",
  "test/e2e/pack-install.test.ts",
  "test/cli/signals.test.ts",
  "test/cli/validate.test.ts",
  "test/runtime/supervisor.test.ts",
  "test/runtime/readiness.test.ts",
  "test/runtime/child-process.test.ts",
  "test/faults/latency.test.ts",
  "test/suite/scheduler.test.ts",
  "test/proxy/retry-after-evidence.test.ts",
  "test/mcp/late-answers.test.ts",
];

export default defineConfig({
  // The examples import the package by its name, as a user's project would.
  resolve: { alias: { "agent-chaos": fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Many test files wait on real processes, sockets and timed windows rather than on the CPU:
    // three files at a time keep a 2-core machine busy through those waits (two left it idle a
    // quarter of the time) while the timing of the examples stays reliable (docs/performance.md).
    maxWorkers: 3,
    reporters: ["default", "./test/reporters/plain-summary.ts"],
    setupFiles: ["./test/setup/cleanups.ts"],
    provide: { shellCaCerts },
    globalSetup: ["./test/setup/stray-processes.ts"],
    projects: [
      {
        extends: true,
        // The other files share their workers: a fresh worker per file costs about half a second
        // of CPU (loading the runner and the sources again), most of what such a file costs.
        test: {
          name: "unit",
          include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: ISOLATED_FILES,
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED_FILES } },
    ],
  },
});
