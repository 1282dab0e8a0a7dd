// Why a machine cannot confine runs reaches instructors and learners inside sentences of their
// language, so every reason the probe gives is Vietnamese in Vietnamese and English in English.
import { describe, expect, test } from 'vitest';
import { bilingual } from '../../i18n/langs.ts';
import { failureHint, probeConfinement } from './confinement.ts';

describe('why confinement is unavailable, in both languages', () => {
  test('without bubblewrap on PATH: the install command, in a Vietnamese and an English sentence', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const status = probeConfinement();
      expect(status.available).toBe(false);
      expect(bilingual.safeParse(status.reason).success).toBe(true);
      expect(status.reason?.en).toContain('bubblewrap is not installed');
      expect(status.reason?.vi).toContain('chưa cài bubblewrap');
      for (const text of Object.values(status.reason!)) expect(text).toContain('apt-get install bubblewrap');
    } finally {
      process.env.PATH = path;
    }
  });

  test('bubblewrap’s own failures: what to do, per known cause, in both languages', () => {
    const asRoot = failureHint("bwrap: Can't find source path /work/main: Permission denied", { uid: 212345 });
    expect(asRoot?.en).toContain('uid 212345');
    expect(asRoot?.vi).toContain('uid 212345');
    expect(bilingual.safeParse(asRoot).success).toBe(true);
    // As a normal user, a missing path is not about permissions: no hint rather than a wrong one.
    expect(failureHint("bwrap: Can't find source path /x", undefined)).toBeUndefined();
    const namespaces = failureHint('bwrap: setting up uid map: Permission denied', undefined);
    expect(namespaces?.en).toContain('kernel.unprivileged_userns_clone=1');
    expect(namespaces?.vi).toContain('user namespace không đặc quyền');
    expect(failureHint('bwrap: something new', undefined)).toBeUndefined();
  });
});
