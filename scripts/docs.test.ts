/**
 * The documentation holds together: the README stays a front door (small, the first steps at its top),
 * every relative link in the README, CONTRIBUTING.md, docs/, the exercise authors' guide and the strict
 * runtime's protocol (exercises/_env/strict/README.md) reaches a
 * file and, for a Markdown target, a heading that exists, and tables of measured figures live only in
 * docs/benchmarks.md, where the bench scripts write them. The pure helpers (slugs, links, tables) are
 * tested here too, on small texts, so each check is seen to fail.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The Markdown files whose links are checked, relative to the repository root. */
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  'exercises/README.md',
  'exercises/_env/strict/README.md',
  'src/sims/MODELS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text without fenced code blocks and inline code, where nothing is a link or a heading. */
function prose(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      out.push('');
    } else if (marker) {
      fence = marker;
      out.push('');
    } else out.push(line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return out.join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters of any script kept), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown text offers: one per heading, repeats numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const lines = markdown.split('\n');
  const code = prose(markdown).split('\n');
  lines.forEach((line, i) => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m || code[i] === '') return; // a `# comment` inside a code block is no heading
    const base = slug(m[1]!.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  });
  return out;
}

/** The relative link targets of a Markdown text (external links, mail and same-page anchors apart). */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

/** Table rows with a cell that is a measured figure (a number and a unit of time or size). */
function figureRows(markdown: string): string[] {
  const figure = /^\s*[~≈<>]?\s*\d[\d.,]*\s?(ns|µs|us|ms|s|min|B|KB|KiB|MB|MiB|GB)\s*$/;
  return prose(markdown)
    .split('\n')
    .filter((line) => line.trim().startsWith('|') && line.split('|').some((cell) => figure.test(cell)));
}

/** Each broken link of one file: a missing file, or an anchor its Markdown target lacks. */
function brokenLinks(file: string): string[] {
  const text = read(file);
  const broken: string[] = [];
  for (const href of relativeLinks(text)) {
    const [path = '', anchor] = decodeURIComponent(href).split('#');
    const target = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), path);
    if (!existsSync(target)) {
      broken.push(`${file}: ${href} (no such file)`);
      continue;
    }
    if (anchor && target.endsWith('.md') && statSync(target).isFile() && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${file}: ${href} (no heading #${anchor} in ${relative(ROOT, target)})`);
    }
  }
  return broken;
}

describe('the README', () => {
  const readme = read('README.md');

  it('stays under 10 KB: a front door, with everything else in docs/', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(10 * 1024);
  });

  it('tells a newcomer in its first 15 lines what to install, how to clone, and the two commands', () => {
    const top = readme.split('\n').slice(0, 15).join('\n');
    for (const needed of ['Node 20', 'git clone', 'npm ci', 'npm start', '#runner-token=', 'apt-get install', 'npm test']) expect(top).toContain(needed);
  });

  it('says what the course is in both languages', () => {
    expect(readme).toMatch(/English/);
    expect(readme).toMatch(/Tiếng Việt/);
  });

  it("reaches every document in docs/, CONTRIBUTING.md and the exercise authors' guide, through its links", () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const href of relativeLinks(read(file))) {
        const path = href.split('#')[0]!;
        if (path === '') continue;
        const target = relative(ROOT, resolve(dirname(join(ROOT, file)), decodeURIComponent(path)));
        if (DOCS.includes(target) && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    expect(DOCS.filter((f) => !reached.has(f))).toEqual([]);
  });
});

describe('the documentation', () => {
  it('has no relative link to a missing file or heading', () => {
    expect(DOCS.flatMap(brokenLinks)).toEqual([]);
  });

  it('keeps tables of figures only in docs/benchmarks.md', () => {
    // MODELS.md tabulates the models' parameters and outcomes (simulated seconds, multiples), not measurements.
    const found = DOCS.filter((f) => f !== 'docs/benchmarks.md' && f !== 'src/sims/MODELS.md').flatMap((f) =>
      figureRows(read(f)).map((row) => `${f}: ${row.trim()}`),
    );
    expect(found).toEqual([]);
  });
});

describe('the helpers', () => {
  it('make the anchors GitHub makes, and number repeats', () => {
    expect(slug('Strict grading: what it guarantees')).toBe('strict-grading-what-it-guarantees');
    expect(slug('The environment (exercises/_env/)')).toBe('the-environment-exercises_env');
    expect(slug('bench:grade-class')).toBe('benchgrade-class');
    expect(slug('Sandbox cô lập')).toBe('sandbox-cô-lập');
    expect([...anchors('# A\n## B\n```sh\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('find relative links outside code, not external ones', () => {
    expect(relativeLinks('[a](docs/x.md#y) [b](https://e.org) `[c](z.md)` [d](#top) [e](mailto:a@b)\n```\n[f](g.md)\n```')).toEqual(['docs/x.md#y', '#top']);
  });

  it('find a table row holding a figure, and leave counts and words alone', () => {
    expect(figureRows('| page | JS |\n| --- | --- |\n| a lesson | 44.8 KB |\n| rules | 23 / 2 |')).toEqual(['| a lesson | 44.8 KB |']);
    expect(figureRows('| exercise | first grade |\n| x | 0.91 s |')).toHaveLength(1);
    expect(figureRows('| id | what |\n| timeout | 2 retries |')).toEqual([]);
  });
});
