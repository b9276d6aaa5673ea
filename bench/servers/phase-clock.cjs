// Loaded with `node --require` into an `agentchaos run` the bench measures (bench/measure/
// run-overhead.mjs): notes when Node has started, when the scenario file is opened, when each
// child process is spawned and exits, each readiness probe, each listen, and when the process
// exits (with the CPU time used so far at the start, the scenario, each spawn and the exit), and writes them as JSON (absolute ms, `performance.timeOrigin + performance.now()`) to
// the file AGENTCHAOS_BENCH_PHASES names. It wraps builtins and prototypes and changes nothing
// the run does. It is CommonJS, as the executable is: a preload that is an ES module would start
// the ES module loader, which the run itself does not.
const { ChildProcess } = require("node:child_process");
const fs = require("node:fs");
const http = require("node:http");
const { syncBuiltinESMExports } = require("node:module");
const net = require("node:net");

const now = () => performance.timeOrigin + performance.now();
/** CPU time (user + system, ms) this process has used so far: steady under load, unlike wall time. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const file = process.env.AGENTCHAOS_BENCH_PHASES;
delete process.env.AGENTCHAOS_BENCH_PHASES;
const clock = {
  loaded: now(),
  loadedCpu: cpu(),
  scenarioOpened: null,
  scenarioOpenedCpu: null,
  spawns: [],
  probes: [],
  listens: [],
  exit: null,
  exitCpu: null,
};

const isScenario = (path) => clock.scenarioOpened === null && /\.ya?ml$/.test(String(path));
const noteScenario = () => {
  clock.scenarioOpened = now();
  clock.scenarioOpenedCpu = cpu();
};
const openSync = fs.openSync;
fs.openSync = function (path, ...rest) {
  if (isScenario(path)) noteScenario();
  return openSync.call(this, path, ...rest);
};
const open = fs.promises.open;
fs.promises.open = function (path, ...rest) {
  if (isScenario(path)) noteScenario();
  return open.call(this, path, ...rest);
};

const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  const entry = {
    file: options.file,
    args: (options.args ?? []).slice(1, 3),
    at: now(),
    cpu: cpu(),
    exit: null,
  };
  clock.spawns.push(entry);
  this.once("exit", () => {
    entry.exit = now();
  });
  return spawn.call(this, options);
};

const request = http.request;
http.request = function (...args) {
  const entry = { at: now(), end: null, status: null };
  clock.probes.push(entry);
  const outgoing = request.apply(this, args);
  outgoing.once("response", (response) => {
    entry.status = response.statusCode;
    entry.end = now();
  });
  outgoing.once("error", () => {
    entry.end ??= now();
  });
  return outgoing;
};

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const entry = { at: now(), listening: null };
  clock.listens.push(entry);
  this.once("listening", () => {
    entry.listening = now();
  });
  return listen.apply(this, args);
};

syncBuiltinESMExports();

process.once("exit", () => {
  clock.exit = now();
  clock.exitCpu = cpu();
  if (file) fs.writeFileSync(file, JSON.stringify(clock));
});
