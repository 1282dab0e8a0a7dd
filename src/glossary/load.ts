/** Reads content/glossary.json from disk (for the build plugin, scripts and tests). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { glossarySchema, type Glossary } from './schema.ts';

export const GLOSSARY_FILE = 'content/glossary.json';

export function loadGlossary(root = process.cwd()): Glossary {
  const path = join(root, GLOSSARY_FILE);
  const parsed = glossarySchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('\n  ');
    throw new Error(`${GLOSSARY_FILE} is not valid:\n  ${problems}`);
  }
  return parsed.data;
}
