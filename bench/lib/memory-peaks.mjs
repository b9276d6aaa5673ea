// Samples process.memoryUsage() every 100 ms in a server process of the bench and keeps each
// field's peak, in MB: where a peak RSS comes from (V8 heap, buffers, the rest native).
import { rename, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import v8 from "node:v8";
import { round } from "./stats.mjs";

export function trackMemoryPeaks() {
  const peaks = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const spaces = {};
  const sample = () => {
    const usage = process.memoryUsage();
    for (const key of Object.keys(peaks)) peaks[key] = Math.max(peaks[key], usage[key]);
    for (const space of v8.getHeapSpaceStatistics())
      spaces[space.space_name] = Math.max(spaces[space.space_name] ?? 0, space.space_size);
  };
  const timer = setInterval(sample, 100);
  timer.unref();
  return () => {
    sample();
    const mb = (entries) =>
      Object.fromEntries(entries.map(([key, bytes]) => [key, round(bytes / 1024 / 1024, 1)]));
    return { ...mb(Object.entries(peaks)), spaces: mb(Object.entries(spaces)) };
  };
}

/**
 * With a path, samples every allocation of this process (also of objects already collected)
 * until `stop()` or SIGUSR2, which write the sampled profile there: what the process allocates,
 * not only what lives. Without a path, does nothing.
 */
export async function sampleAllocations(path) {
  if (!path) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      const { profile } = await session.post("HeapProfiler.stopSampling");
      await writeFile(`${path}.tmp`, JSON.stringify(profile));
      await rename(`${path}.tmp`, path);
      session.disconnect();
    })();
    return stopped;
  };
  process.on("SIGUSR2", () => void stop());
  return { stop };
}
