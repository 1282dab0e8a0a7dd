import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_DOC, replaceSection, sectionNames, stamp } from './bench-record.ts';

describe('docs/benchmarks.md', () => {
  const doc = readFileSync(BENCHMARKS_DOC, 'utf8');
  const scripts = Object.keys(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>)
    .filter((s) => s.startsWith('bench:'))
    .map((s) => s.slice('bench:'.length));

  it('has one section for every bench:* script, and none for a script that is gone', () => {
    expect(scripts.length).toBeGreaterThan(0);
    expect([...sectionNames(doc)].sort()).toEqual([...scripts].sort());
  });

  it('has each section closed after it opens, so a script can write it', () => {
    for (const name of scripts) expect(() => replaceSection(doc, name, 'x')).not.toThrow();
  });
});

describe('replaceSection', () => {
  const doc = 'intro\n<!-- bench:a -->\nold a\n<!-- /bench:a -->\nmiddle\n<!-- bench:b -->\nold b\n<!-- /bench:b -->\n';

  it('replaces only the named section and keeps the prose around it', () => {
    const next = replaceSection(doc, 'b', '| new |');
    expect(next).toBe('intro\n<!-- bench:a -->\nold a\n<!-- /bench:a -->\nmiddle\n<!-- bench:b -->\n| new |\n<!-- /bench:b -->\n');
    expect(replaceSection(next, 'b', '| new |')).toBe(next);
  });

  it('refuses a section that is missing or closed before it opens', () => {
    expect(() => replaceSection(doc, 'c', 'x')).toThrow(/bench:c/);
    expect(() => replaceSection('<!-- /bench:a -->\n<!-- bench:a -->', 'a', 'x')).toThrow(/bench:a/);
  });
});

describe('stamp', () => {
  const machine = { date: new Date('2026-12-01T18:04:30Z'), commit: 'abc1234', node: 'v24.1.0', cores: 2, load: [1.5, 1.9] as [number, number] };

  it('says when, on what, and how busy', () => {
    expect(stamp(machine)).toBe('_Recorded 2026-12-01 18:04 UTC, commit `abc1234`, Node v24.1.0, 2 cores, load average 1.5 at the start and 1.9 at the end._');
  });

  it('marks figures from a machine busier than its cores as upper bounds', () => {
    expect(stamp({ ...machine, load: [1.5, 3.2] })).toMatch(/busy: figures are upper bounds/);
  });
});
