// Preloaded into a measured process (`node --import <this file> ...`): on exit it writes the
// process's peak RSS in kB (peak-rss.mjs) to the file named by AGENTCHAOS_BENCH_MAX_RSS_FILE.
import { writeFileSync } from "node:fs";
import { peakRssKb } from "./peak-rss.mjs";

const file = process.env.AGENTCHAOS_BENCH_MAX_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(peakRssKb())));
