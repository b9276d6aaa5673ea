/** Small scenario files for suite tests, built on the fixture programs. */
import { join } from "node:path";
import { fixtureDependency, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

function node(program: string, ...args: string[]): string {
  return yamlList([process.execPath, join(PROGRAMS, program), ...args]);
}

/** An unmanaged dependency on a fixed port (nothing listens; the workload does not call it). */
function fixedPort(port: number): string {
  return `dependency:\n  type: http\n  base_url: http://127.0.0.1:${port}\n`;
}

/** PASSED / BASELINE_SUCCEEDED, or FAILED / WORKLOAD_EXIT_CODE_MISMATCH when `exitCode` is not 0. */
export function exitScenario(
  dir: string,
  file: string,
  name: string,
  port: number,
  exitCode = 0,
): Promise<string> {
  return writeScenario(
    dir,
    file,
    `schema_version: 1\nname: ${JSON.stringify(name)}\n${fixedPort(port)}workload:\n  command: ${node("exit-code.mjs", String(exitCode))}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
  );
}

/** RECOVERED / RECOVERY_OBSERVED: the first GET gets a 503, the workload retries. */
export function recoveringScenario(dir: string, file: string, name: string, port: number): Promise<string> {
  return writeScenario(
    dir,
    file,
    `schema_version: 1\nname: ${JSON.stringify(name)}\n${fixtureDependency(port)}workload:\n  name: retrier\n  command: ${node("retry-get.mjs")}\nfault:\n  type: http_error\n  target:\n    path: /item\n  trigger:\n    occurrence: 1\n  status_code: 503\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
  );
}

/** Holds `<lockDir>/port-<port>` while it runs: FAILED (exit 3) if another scenario held it. */
export function lockScenario(
  dir: string,
  file: string,
  port: number,
  lockDir: string,
  lockName = `port-${port}`,
): Promise<string> {
  return writeScenario(
    dir,
    file,
    `schema_version: 1\nname: ${file}\n${fixedPort(port)}workload:\n  command: ${node("port-lock.mjs", join(lockDir, lockName), "400")}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
  );
}

/** Waits for `other` to run at the same time: PASSED only when both overlap. */
export function barrierScenario(
  dir: string,
  file: string,
  port: number,
  markers: string,
  me: string,
  other: string,
): Promise<string> {
  return writeScenario(
    dir,
    file,
    `schema_version: 1\nname: ${file}\n${fixedPort(port)}workload:\n  command: ${node("barrier.mjs", markers, me, other, "8000")}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
  );
}

/** A forever-running workload (for interruption). */
export function foreverScenario(dir: string, file: string, port: number): Promise<string> {
  return writeScenario(
    dir,
    file,
    `schema_version: 1\nname: ${file}\n${fixedPort(port)}workload:\n  command: ${node("forever.mjs")}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 60\n`,
  );
}
