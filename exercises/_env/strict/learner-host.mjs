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

// The learner's .ts files the grader already made plain JavaScript (src/grading/node/strict-strip.ts)
// load as they are, without starting Node's TypeScript compiler in this process; the others (an enum,
// a syntax error) go through it (--experimental-transform-types), as before. Without registerHooks
// (before Node 22.15) every file goes through it: a stripped file is still valid TypeScript.
const plain = new Set(JSON.parse(readFileSync(new URL('./plain-js.json', import.meta.url), 'utf8')).map((p) => pathToFileURL(resolve('src', p)).href));
nodeModule.registerHooks?.({
  load: (url, context, nextLoad) =>
    plain.has(url) ? { format: 'module', source: readFileSync(new URL(url), 'utf8'), shortCircuit: true } : nextLoad(url, context),
});

const CALL_LIMIT_MS = 10 * 60_000;
let membrane;
const channel = openChannel(Number(process.argv[2]), (msg) => membrane.receive(msg), { keepAlive: true });
membrane = createMembrane({
  send: channel.send,
  waitUntil: channel.waitUntil,
  guard: false,
  callLimitMs: CALL_LIMIT_MS,
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
// A promise of the learner's code rejected with no handler: the tests' process hears of it as its
// own unhandled rejection (a suite may listen for them; vitest reports them), as in one process.
// The stand-in of a promise of the tests is not the learner's: whether it is handled is the tests' business.
process.on('unhandledRejection', (reason, promise) => {
  if (!membrane.isMirror(promise)) membrane.unhandled(reason);
});
