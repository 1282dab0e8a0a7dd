/**
 * An exercise as the browser gets it (built by src/pages/exercise-bundles/[id].json.ts): what the
 * grading core needs to grade it in a WebContainer, the env lockfile, and the reference solution.
 */
import type { ExerciseBundle, ExerciseSource } from '../grading/core/index.ts';

export interface ClientBundle extends ExerciseBundle {
  lockfile: string;
  solution: Record<string, string>;
}

export const bundleUrl = (id: string) => `/exercise-bundles/${id}.json`;

const loaded = new Map<string, Promise<ClientBundle>>();

export function fetchBundle(id: string, fetchImpl: typeof fetch = fetch): Promise<ClientBundle> {
  let hit = loaded.get(id);
  if (!hit) {
    hit = fetchImpl(bundleUrl(id)).then((res) => {
      if (!res.ok) throw new Error(`${bundleUrl(id)}: HTTP ${res.status}`);
      return res.json() as Promise<ClientBundle>;
    });
    hit.catch(() => loaded.delete(id)); // a failed fetch may be retried later
    loaded.set(id, hit);
  }
  return hit;
}

/** The grading core's source of exercises, backed by fetched bundles. */
export function bundleSource(fetchImpl?: typeof fetch): ExerciseSource {
  return {
    ids: async () => [],
    load: (id) => fetchBundle(id, fetchImpl).catch(() => undefined),
  };
}
