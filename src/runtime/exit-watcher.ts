import type { ManagedProcess, ProcessExit } from "./child-process.js";

/**
 * Calls `onExit` if `process` exits before anyone asked it to stop (`stop` or `reap`): a
 * managed dependency that dies during the run. Reusable for every process that must outlive
 * the run's active part (each dependency, later each MCP server).
 */
export function watchUnexpectedExit(process: ManagedProcess, onExit: (exit: ProcessExit) => void): void {
  void process.exited.then((exit) => {
    if (!process.stopRequested) onExit(exit);
  });
}
