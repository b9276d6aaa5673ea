#!/usr/bin/env node
// The checks of `npm test`, side by side: the type check of the sources and tests; lint and the
// layer rules; the build. With --tests, Vitest runs as soon as the build is done, beside the
// checks still running (they are short, run at a lower priority, and the tests need only the
// build). The checks' output is printed when each side ends, under its name; Vitest prints as it
// goes. The first failure ends the other sides and the exit code is 1, so a lint or layer error
// still fails `npm test`.
// An interruption (Ctrl-C, SIGTERM) stops every side and exits 130.
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";

const VITEST = join(import.meta.dirname, "..", "node_modules", ".bin", "vitest");
const withTests = process.argv.includes("--tests");

// With --tests, the type check and lint run at a lower priority: the build, and then the tests,
// come first, and the checks take the time the tests leave idle (waiting on their processes).
const SIDES = [
  { name: "typecheck", background: withTests, steps: [["npm", "run", "--silent", "typecheck"]] },
  {
    name: "lint, layers",
    background: withTests,
    steps: [
      ["npm", "run", "--silent", "lint"],
      ["npm", "run", "--silent", "lint:layers"],
    ],
  },
  {
    name: withTests ? "build, tests" : "build",
    steps: [["npm", "run", "--silent", "build"], ...(withTests ? [[VITEST, "run"]] : [])],
  },
];

const running = new Set();
let stopping = false;

function stopAll() {
  stopping = true;
  for (const child of running) {
    try {
      if (child.live) child.kill("SIGTERM");
      else process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

function runStep([command, ...args], background) {
  return new Promise((resolve) => {
    // Vitest prints as it goes and stays in the terminal's process group (Ctrl-C reaches it and
    // its workers as it would without this script); each check runs in a group of its own.
    const live = command === VITEST;
    const child = spawn(command, args, {
      stdio: live ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
      detached: !live,
    });
    child.live = live;
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // Not allowed here: it runs at the normal priority.
      }
    }
    running.add(child);
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => {
      running.delete(child);
      resolve({ ok: false, output: `${command}: ${error.message}\n` });
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      const text = Buffer.concat(output).toString("utf8");
      resolve({ ok: code === 0, output: text, failure: code === 0 ? "" : `exit ${code ?? signal}` });
    });
  });
}

async function runSide(side) {
  const started = performance.now();
  for (const step of side.steps) {
    const result = await runStep(step, side.background === true);
    if (result.output) process.stdout.write(result.output);
    if (!result.ok) {
      if (stopping) return false;
      process.stderr.write(
        `checks: ${step[0] === VITEST ? "tests" : step.slice(3).join(" ")} failed (${result.failure})\n`,
      );
      return false;
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`checks: ${side.name} passed in ${seconds} s\n`);
  return true;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

const outcomes = await Promise.all(
  SIDES.map((side) =>
    runSide(side).then((ok) => {
      if (!ok && !stopping) stopAll();
      return ok;
    }),
  ),
);
process.exit(outcomes.every(Boolean) ? 0 : 1);
