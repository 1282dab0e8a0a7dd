// @ts-check
// The two tables of a membrane: what this end handed out (by the id it gave it) and the stand-ins it
// made for what the other end handed out (by that end's id). A handle sent back becomes the
// original again through them, so identity survives a round trip. See ./README.md.
import { INTRINSIC_PROTOS } from './wire.mjs';

/** @param {(why: string) => Error} violation */
export function createHandles(violation) {
  /** @type {Map<number, object>} id -> this end's object, handed out */
  const exported = new Map();
  /** @type {WeakMap<object, number>} */
  const exportId = new WeakMap();
  /** @type {Map<number, any>} the other end's id -> the stand-in made for it here */
  const mirrors = new Map();
  /** @type {WeakMap<object, number>} */
  const mirrorId = new WeakMap();
  let nextId = 1;

  /** @param {unknown} id @param {object} m */
  const remember = (id, m) => {
    mirrors.set(/** @type {number} */ (id), m);
    mirrorId.set(m, /** @type {number} */ (id));
  };

  return {
    /** The id `value` is handed out as (a new one the first time). @param {object} value */
    idOf(value) {
      let id = exportId.get(value);
      if (id === undefined) {
        id = nextId++;
        exportId.set(value, id);
        exported.set(id, value);
      }
      return id;
    },

    /** Whether `value` was handed out already. @param {object} value */
    handedOut: (value) => exportId.has(value),

    /**
     * The object this end handed out as `id`; any other id is a violation.
     * @param {unknown} id @param {string} what
     * @returns {object}
     */
    mine(id, what) {
      const value = exported.get(/** @type {number} */ (id));
      if (value === undefined) throw violation(`a reference to ${what} that was never sent (id ${String(id)})`);
      return value;
    },

    /** The other end's id of a stand-in made here, or undefined. @param {object} value */
    remoteId: (value) => mirrorId.get(value),

    /** @param {unknown} value */
    isMirror: (value) => (typeof value === 'object' || typeof value === 'function') && value !== null && mirrorId.has(value),

    /** @param {unknown} id */
    hasMirror: (id) => mirrors.has(/** @type {number} */ (id)),

    /** @param {unknown} id */
    mirror: (id) => mirrors.get(/** @type {number} */ (id)),

    /**
     * The stand-in for the other end's `id`, made by `make` the first time.
     * @template {object} T @param {unknown} id @param {() => T} make @returns {T}
     */
    cached(id, make) {
      if (mirrors.has(/** @type {number} */ (id))) return mirrors.get(/** @type {number} */ (id));
      const m = make();
      remember(id, m);
      return m;
    },

    /** Records `m` as the stand-in for the other end's `id`. */
    remember,

    /**
     * The id of the nearest class of `value` this end handed out (so the other end builds its copy
     * on that class's stand-in), or undefined when the nearest known class is the other end's.
     * @param {object} value
     */
    classId(value) {
      for (let p = Object.getPrototypeOf(value); p && !INTRINSIC_PROTOS.has(p); p = Object.getPrototypeOf(p)) {
        const ctor = Object.getOwnPropertyDescriptor(p, 'constructor')?.value;
        if (typeof ctor === 'function' && exportId.has(ctor)) return exportId.get(ctor);
        if (typeof ctor === 'function' && mirrorId.has(ctor)) return undefined;
      }
      return undefined;
    },

    /**
     * The stand-in of the other end's class `id`, if it is one.
     * @param {unknown} id @returns {(new (...args: unknown[]) => object) | undefined}
     */
    classOf(id) {
      const m = id === undefined ? undefined : mirrors.get(/** @type {number} */ (id));
      return typeof m === 'function' ? m : undefined;
    },
  };
}

/** @typedef {ReturnType<typeof createHandles>} Handles */
