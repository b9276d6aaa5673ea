#!/usr/bin/env node
// The checks `npm test` runs before the tests: the type check of the sources and tests on one
// side, and lint, the layer rules and the build on the other, side by side (each side is one
// thread of work, so a 2-core machine runs both at once). Each side's output is printed when it
// ends, under its name; the first failure ends the other side and the exit code is 1.
// An interruption (Ctrl-C, SIGTERM) stops both sides' process groups and exits 130.
import { spawn } from "node:child_process";

const SIDES = [
  { name: "typecheck", steps: [["npm", "run", "--silent", "typecheck"]] },
  {
    name: "lint, layers, build",
    steps: [
      ["npm", "run", "--silent", "lint"],
      ["npm", "run", "--silent", "lint:layers"],
      ["npm", "run", "--silent", "build"],
    ],
  },
];

const running = new Set();
let stopping = false;

function stopAll() {
  stopping = true;
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

function runStep([command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
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
    const result = await runStep(step);
    if (result.output) process.stdout.write(result.output);
    if (!result.ok) {
      if (stopping) return false;
      process.stderr.write(
        `checks: ${step.slice(3).join(" ") || step.join(" ")} failed (${result.failure})\n`,
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
