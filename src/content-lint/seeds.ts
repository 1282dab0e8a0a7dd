/** Where the seed articles are found, for the checks that compare the course's text with them (scripts/seed-overlap.ts, the content tests). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The seed articles live outside the repository, in ../shared/seeds (CI lays a copy there too). */
export function seedDir(root = process.cwd()): string | undefined {
  const candidates = [process.env.COURSE_SEEDS_DIR, resolve(root, '../shared/seeds')];
  return candidates.find((dir): dir is string => !!dir && existsSync(dir));
}
