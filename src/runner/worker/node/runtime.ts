/**
 * What the page's Node modules share: how work is scheduled (Node's nextTick, and a macrotask that
 * stands for an I/O callback), and which handles keep the "process" alive (Node exits when no ref'd
 * timer, server or socket is left; a grading worker cannot exit, but a rule about timers left
 * running can ask how many there are, as process.getActiveResourcesInfo() tells in Node).
 * The scheduling functions are taken when the runtime is made, so a suite's fake timers
 * (vi.useFakeTimers replaces the globals) never stop the loopback network, as they never stop
 * Node's own I/O.
 */

/** Something that keeps Node's event loop alive while it is ref'd. */
export interface Handle {
  /** The resource type getActiveResourcesInfo() names: 'Timeout', 'Immediate', 'TCPServerWrap', 'TCPSocketWrap'. */
  readonly resourceType: string;
  hasRef(): boolean;
}

/** Told when a handle starts keeping the loop alive and when it stops (the page's async_hooks, modules.ts). */
export interface HandleWatcher {
  init(h: Handle): void;
  destroy(h: Handle): void;
}

export class Handles {
  #live = new Set<Handle>();
  #watchers = new Set<HandleWatcher>();
  add(h: Handle): void {
    if (this.#live.has(h)) return;
    this.#live.add(h);
    for (const w of this.#watchers) w.init(h);
  }
  delete(h: Handle): void {
    if (!this.#live.delete(h)) return;
    for (const w of this.#watchers) w.destroy(h);
  }
  /** Calls `w` for every handle added or ended from now on, until the returned function is called. */
  watch(w: HandleWatcher): () => void {
    this.#watchers.add(w);
    return () => void this.#watchers.delete(w);
  }
  /** Node's process.getActiveResourcesInfo(), for the handles that keep the loop alive. */
  resources(): string[] {
    return [...this.#live].filter((h) => h.hasRef()).map((h) => h.resourceType);
  }
  /** How many ref'd handles are left: 0 is when a Node process would exit. */
  refCount(): number {
    let n = 0;
    for (const h of this.#live) if (h.hasRef()) n++;
    return n;
  }
}

export interface Runtime {
  /** Node's process.nextTick: before the next macrotask (here, with the promise jobs). */
  nextTick(fn: (...args: never[]) => void, ...args: unknown[]): void;
  /** One turn of the event loop later, like an I/O callback. */
  io(fn: () => void): void;
  /** Timers that fake timers cannot replace and that keep nothing alive (sockets' idle timeouts). */
  setTimer(fn: () => void, ms: number): () => void;
  handles: Handles;
}

type Scope = typeof globalThis;

/** A macrotask without setTimeout's 4 ms clamp: a MessageChannel message, as browsers' setImmediate polyfills do. */
function macrotask(scope: Scope): (fn: () => void) => void {
  if (typeof scope.MessageChannel !== 'function') {
    const set = scope.setTimeout.bind(scope);
    return (fn) => void set(fn, 0);
  }
  const queue: Array<() => void> = [];
  const channel = new scope.MessageChannel();
  channel.port1.onmessage = () => {
    const fn = queue.shift();
    fn?.();
  };
  // Node: a port with a listener keeps the process alive (the unit tests of this runtime run there).
  (channel.port1 as unknown as { unref?(): void }).unref?.();
  return (fn) => {
    queue.push(fn);
    channel.port2.postMessage(0);
  };
}

export function createRuntime(scope: Scope = globalThis): Runtime {
  const set = scope.setTimeout.bind(scope);
  const clear = scope.clearTimeout.bind(scope);
  const microtask = scope.queueMicrotask.bind(scope);
  return {
    nextTick: (fn, ...args) => microtask(() => (fn as (...a: unknown[]) => void)(...args)),
    io: macrotask(scope),
    setTimer(fn, ms) {
      const id = set(fn, ms) as unknown as { unref?(): void };
      id?.unref?.();
      return () => clear(id as never);
    },
    handles: new Handles(),
  };
}
