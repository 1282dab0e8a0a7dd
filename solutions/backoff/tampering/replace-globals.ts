// tampering: replaces Date, Promise, timers, AbortSignal and Math.random for everyone in the process
// appended-to-starter: the lines below follow an untouched copy of the starter
// Untouched starter above: what the tests see of time and randomness, changed for the whole process.
const g = globalThis as any;
g.Math.random = () => 0.5;
g.Date.now = () => 0;
g.setTimeout = (fn: () => void) => (fn(), 0);
g.AbortSignal.timeout = () => new AbortController().signal;
const RealPromise = Promise;
g.Promise = class extends RealPromise<unknown> {};
