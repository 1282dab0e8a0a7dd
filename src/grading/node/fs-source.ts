/**
 * Exercises read from the repository's exercises/ folder on disk: the grader's source in Node (the
 * browser runners get the same bundles built into the page instead).
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../i18n/zod-english.ts'; // a malformed exercise.json is reported with zod's messages
import { parseExercise } from '../core/index.ts';
import { ENV_FILES, type ExerciseBundle, type ExerciseSource, parseTestList, TEST_LIST } from '../core/index.ts';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const EXERCISES_DIR = join(REPO_ROOT, 'exercises');
export const ENV_DIR = join(EXERCISES_DIR, '_env');

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out.sort();
}

export async function readTree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  if (!existsSync(dir)) return files;
  for (const full of await walk(dir)) files[relative(dir, full).split('\\').join('/')] = await readFile(full, 'utf8');
  return files;
}

/** Exercises as folders: exercises/<id>/{exercise.json, starter/, tests/}, env in exercises/_env. */
export function fsExerciseSource(dir = EXERCISES_DIR): ExerciseSource {
  const cache = new Map<string, ExerciseBundle>();
  return {
    async ids() {
      const entries = await readdir(dir, { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory() && !e.name.startsWith('_') && existsSync(join(dir, e.name, 'exercise.json')))
        .map((e) => e.name)
        .sort();
    },
    async load(id) {
      if (!/^[a-z0-9-]+$/.test(id) || !existsSync(join(dir, id, 'exercise.json'))) return undefined;
      const hit = cache.get(id);
      if (hit) return hit;
      const exercise = parseExercise(JSON.parse(await readFile(join(dir, id, 'exercise.json'), 'utf8')));
      const env: Record<string, string> = {};
      for (const name of ENV_FILES) env[name] = await readFile(join(dir, '_env', name), 'utf8');
      const bundle: ExerciseBundle = {
        exercise,
        tests: await readTree(join(dir, id, 'tests')),
        starter: await readTree(join(dir, id, 'starter')),
        env,
        ...(existsSync(join(dir, id, TEST_LIST)) ? { testList: parseTestList(await readFile(join(dir, id, TEST_LIST), 'utf8')) } : {}),
      };
      cache.set(id, bundle);
      return bundle;
    },
  };
}
