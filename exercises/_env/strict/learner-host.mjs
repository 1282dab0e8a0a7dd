// The learner's process in strict grading: it loads the learner's modules and answers the tests'
// calls over the channel (argv[2]: the descriptor of the connection the grader handed over). It runs
// in its own confined sandbox with the learner's files only; nothing here is trusted by the tests
// (the learner may rewrite all of it).
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { openChannel } from './channel.mjs';
import { createMembrane } from './membrane.mjs';
import { LOOPBACK } from './http-bridge.mjs';

// The learner's .ts files the grader already made plain JavaScript (src/grading/node/strict-strip.ts)
// load as they are, without starting Node's TypeScript compiler in this process; the others (an enum,
// a syntax error) go through it (--experimental-transform-types), as before. Without registerHooks
// (before Node 22.15) every file goes through it: a stripped file is still valid TypeScript.
// An import of node:http or node:net turns on the loopback dialling below first (node:http costs
// about 35 ms to load, so only a learner's code that uses it loads it); without registerHooks, at once.
const plain = new Set(JSON.parse(readFileSync(new URL('./plain-js.json', import.meta.url), 'utf8')).map((p) => pathToFileURL(resolve('src', p)).href));
const NETWORK_MODULES = new Set(['http', 'node:http', 'net', 'node:net']);
const hooked = nodeModule.registerHooks?.({
  resolve: (specifier, context, nextResolve) => {
    if (NETWORK_MODULES.has(specifier)) dialLoopbackFromTests();
    return nextResolve(specifier, context);
  },
  load: (url, context, nextLoad) =>
    plain.has(url) ? { format: 'module', source: readFileSync(new URL(url), 'utf8'), shortCircuit: true } : nextLoad(url, context),
});

let membrane;
const channel = openChannel(Number(process.argv[2]), (msg) => membrane.receive(msg), { keepAlive: true });
membrane = createMembrane({
  send: channel.send,
  waitUntil: channel.waitUntil,
  guard: false,
  onLoad: (file) => {
    const url = pathToFileURL(resolve('src', file)).href;
    // The module namespace, as a plain object of its exports (classes and functions as handles).
    return import(url).then((ns) => Object.fromEntries(Object.keys(ns).map((k) => [k, ns[k]])));
  },
});

// The learner's reads of the clock, of randomness, of the network and its timers go to the tests' process,
// where the suite can watch or replace them exactly as it does when everything runs in one process
// (vitest seeds Math.random per test there).
const remote =
  (name) =>
  (...args) =>
    membrane.request({ t: 'global', name, args: args.map((a) => membrane.encode(a)) });
Math.random = remote('Math.random');
// The clocks are read here (a round trip per read would let time pass between two reads that the
// tests expect together), on the tests' time origin, and each read is reported to the tests' process,
// where a suite that watches Date.now or performance.now sees it (after the call, in order).
const notify = (name) => membrane.notify(name);
const localDateNow = Date.now.bind(Date);
const localPerfNow = performance.now.bind(performance);
let shift;
Date.now = function now() {
  notify('Date.now');
  return localDateNow();
};
performance.now = function now() {
  shift ??= performance.timeOrigin - membrane.request({ t: 'global', name: 'performance.timeOrigin', args: [] });
  notify('performance.now');
  return localPerfNow() + shift;
};
globalThis.fetch = remote('fetch');
// Timers too: they run on the tests' clock, where a suite counts the timers left running.
for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate']) globalThis[name] = remote(name);
// Connections to loopback (node:http or node:net: the services' URLs are the tests' stand-in
// servers) are made from the tests' process, where one process would make them; any other goes
// nowhere (this sandbox has no network). http's agents hold their own copy of createConnection, and
// the ESM named exports (import { connect } from 'node:net') are synced to the patched functions.
let dialling = false;
function dialLoopbackFromTests() {
  if (dialling) return;
  dialling = true;
  const http = process.getBuiltinModule('node:http');
  const net = process.getBuiltinModule('node:net');
  const dialed = (connect) =>
    function createConnection(...args) {
      const [first, second] = args;
      const target =
        typeof first === 'object' && first !== null
          ? { host: first.host ?? 'localhost', port: first.port, path: first.path }
          : { host: typeof second === 'string' ? second : 'localhost', port: first };
      const port = Number(target.port);
      if (target.path != null || !LOOPBACK.has(String(target.host)) || !Number.isInteger(port)) return Reflect.apply(connect, this, args);
      const socket = membrane.dial(String(target.host), port);
      const onConnect = args.findIndex((a) => typeof a === 'function');
      if (onConnect > 0 && !(this instanceof http.Agent)) socket.once('connect', args[onConnect]);
      return socket;
    };
  net.connect = dialed(net.connect);
  net.createConnection = dialed(net.createConnection);
  http.Agent.prototype.createConnection = dialed(http.Agent.prototype.createConnection);
  nodeModule.syncBuiltinESMExports();
}
if (!hooked) dialLoopbackFromTests();

// A promise of the learner's code rejected with no handler: the tests' process hears of it as its
// own unhandled rejection (a suite may listen for them; vitest reports them), as in one process.
// The stand-in of a promise of the tests is not the learner's: whether it is handled is the tests' business.
process.on('unhandledRejection', (reason, promise) => {
  if (!membrane.isMirror(promise)) membrane.unhandled(reason);
});
