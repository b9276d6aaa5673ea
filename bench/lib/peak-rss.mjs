// The peak resident memory of this process, in kB. Linux keeps getrusage's maximum
// (`process.resourceUsage().maxRSS`) across exec, starting from the high-water mark of the process
// that forked this one: a child of a bench process that once held 700 MB reports 700 MB, whatever it
// used itself. /proc/self/status's VmHWM is the high-water mark of this process's own memory since its
// exec; where /proc is missing, getrusage's figure is all there is.
import { readFileSync } from "node:fs";

export function peakRssKb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match !== null) return Number(match[1]);
  } catch {
    // No /proc: below.
  }
  return process.resourceUsage().maxRSS;
}
