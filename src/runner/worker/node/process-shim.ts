// What readable-stream imports as `process` in the page (astro.config.mjs points `process/` here for
// the workers): Node's nextTick runs before the next macrotask, not after a zero timeout as in the
// npm `process` package's browser file, so streams emit 'data', 'end' and 'close' when Node does.
const nextTick = (fn: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => fn(...args));
const shim = { nextTick, env: {}, browser: true, version: '', versions: {} };
export default shim;
export { nextTick };
