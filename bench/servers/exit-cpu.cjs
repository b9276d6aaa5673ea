// Loaded with `node --require` into a process the bench measures (bench/measure/start-cpu.mjs):
// at exit, writes the CPU time the process used since Node started (user + system, ms) to the
// file AGENTCHAOS_BENCH_EXIT_CPU names. CommonJS, as the executable is: a preload that is an ES
// module would start the ES module loader, which the measured command itself does not.
const { writeFileSync } = require("node:fs");

const file = process.env.AGENTCHAOS_BENCH_EXIT_CPU;
delete process.env.AGENTCHAOS_BENCH_EXIT_CPU;
if (file !== undefined) {
  process.once("exit", () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, String((user + system) / 1000));
  });
}
