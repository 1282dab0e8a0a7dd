import { describe, expect, it } from 'vitest';
import { buildProgressFile } from '../src/progress/transfer.ts';
import { emptyProgress } from '../src/progress/schema.ts';
import { planImport } from './workbook-import.ts';

const editable = new Map([
  ['backoff', ['backoff.ts']],
  ['service-chain', ['service-a.ts', 'service-b.ts']],
]);
const saved = (files: Record<string, string>) => ({ version: 1 as const, files, savedAt: '2026-12-01T10:00:00.000Z' });
const fileWith = (code: Record<string, ReturnType<typeof saved>>) => JSON.stringify(buildProgressFile(emptyProgress(), code, new Date('2026-12-01T11:00:00Z')));

describe('planImport', () => {
  it('writes each exercise’s saved editable files into the workbook', () => {
    const r = planImport(
      fileWith({ backoff: saved({ 'backoff.ts': 'mine' }), 'service-chain': saved({ 'service-a.ts': 'a', 'service-b.ts': 'b' }) }),
      editable,
      () => undefined,
      false,
    );
    expect(r.ok && r.plan.write).toEqual([
      { id: 'backoff', path: 'backoff/backoff.ts', text: 'mine' },
      { id: 'service-chain', path: 'service-chain/service-a.ts', text: 'a' },
      { id: 'service-chain', path: 'service-chain/service-b.ts', text: 'b' },
    ]);
  });

  it('keeps a workbook file with other content unless forced, and says so', () => {
    const text = fileWith({ backoff: saved({ 'backoff.ts': 'from the browser' }) });
    const there = (p: string) => (p === 'backoff/backoff.ts' ? 'from my editor' : undefined);
    const kept = planImport(text, editable, there, false);
    expect(kept.ok && kept.plan).toEqual({ write: [], skipped: [{ id: 'backoff', reason: 'kept' }] });
    const forced = planImport(text, editable, there, true);
    expect(forced.ok && forced.plan.write).toEqual([{ id: 'backoff', path: 'backoff/backoff.ts', text: 'from the browser' }]);
  });

  it('writes nothing for code already there, an unknown exercise, or a file the exercise does not have', () => {
    const text = fileWith({ backoff: saved({ 'backoff.ts': 'same', '../../etc/passwd': 'x' }), 'no-such-exercise': saved({ 'a.ts': 'x' }) });
    const r = planImport(text, editable, (p) => (p === 'backoff/backoff.ts' ? 'same' : undefined), false);
    expect(r.ok && r.plan).toEqual({
      write: [],
      skipped: [
        { id: 'backoff', reason: 'same' },
        { id: 'no-such-exercise', reason: 'unknown-exercise' },
      ],
    });
  });

  it('refuses a file that is not a progress export, with the reason', () => {
    expect(planImport('not json', editable, () => undefined, false)).toEqual({ ok: false, problem: { kind: 'not-json' } });
    expect(planImport('{"format":"other"}', editable, () => undefined, false)).toEqual({ ok: false, problem: { kind: 'wrong-format' } });
  });
});
