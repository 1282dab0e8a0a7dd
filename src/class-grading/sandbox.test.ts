import { describe, expect, it } from 'vitest';
import { FakeSandbox } from '../grading/testing/fake-sandbox.ts';
import type { Sandbox } from '../grading/core/types.ts';
import { createSubmissionSandbox, defaultJobs, sandboxText, type SandboxModule } from './sandbox.ts';

const node = new FakeSandbox() as unknown as Sandbox;
const confined = new FakeSandbox() as unknown as Sandbox;
const withConfinement = (available: boolean, reason?: { vi: string; en: string }): SandboxModule => ({
  NodeSandbox: { create: async () => node },
  ConfinedSandbox: { create: async () => confined },
  confinementStatus: () => ({ available, mechanism: 'bwrap', ...(reason ? { reason } : {}) }),
});

describe('createSubmissionSandbox', () => {
  it('uses the confined sandbox by default when it is available', async () => {
    const choice = createSubmissionSandbox({ unsafeNoSandbox: false }, withConfinement(true));
    expect(choice).toMatchObject({ ok: true, confined: true, mechanism: 'bwrap' });
    if (choice.ok) expect(await choice.factory()).toBe(confined);
  });

  it('refuses without confinement, saying why in both languages: each text with the reason in its own', () => {
    const reason = { vi: 'user namespace đang bị tắt', en: 'user namespaces are disabled' };
    const choice = createSubmissionSandbox({ unsafeNoSandbox: false }, withConfinement(false, reason));
    expect(choice.ok).toBe(false);
    if (choice.ok) return;
    expect(sandboxText('en', choice.refusal)).toContain('(user namespaces are disabled)');
    expect(sandboxText('en', choice.refusal)).toContain('--unsafe-no-sandbox');
    expect(sandboxText('vi', choice.refusal)).toContain('Từ chối chấm');
    expect(sandboxText('vi', choice.refusal)).toContain('(user namespace đang bị tắt)');
    expect(sandboxText('vi', choice.refusal)).not.toContain('disabled');
  });

  it('a status check that throws counts as unavailable', () => {
    const broken: SandboxModule = {
      ...withConfinement(true),
      confinementStatus: () => {
        throw new Error('probe failed');
      },
    };
    const choice = createSubmissionSandbox({ unsafeNoSandbox: false }, broken);
    expect(!choice.ok && sandboxText('en', choice.refusal)).toContain('the confinement check failed: probe failed');
    expect(!choice.ok && sandboxText('vi', choice.refusal)).toContain('kiểm tra cơ chế cô lập bị lỗi: probe failed');
  });

  it('with --unsafe-no-sandbox grades in plain child processes and warns, confinement or not', async () => {
    for (const available of [false, true]) {
      const choice = createSubmissionSandbox({ unsafeNoSandbox: true }, withConfinement(available, { vi: 'không có bwrap', en: 'no bwrap' }));
      expect(choice).toMatchObject({ ok: true, confined: false });
      if (!choice.ok || choice.confined) return;
      expect(await choice.factory()).toBe(node);
      expect(sandboxText('en', choice.warning)).toMatch(/WARNING.*runs as you/);
      expect(sandboxText('vi', choice.warning)).toContain('CẢNH BÁO');
    }
  });

  it('finds the real grading module’s confined sandbox where the machine can confine', () => {
    const real = createSubmissionSandbox({ unsafeNoSandbox: false });
    // Either the confined sandbox, or a refusal that explains itself: never plain processes by default.
    if (real.ok) expect(real.confined).toBe(true);
    else expect(sandboxText('en', real.refusal)).toContain('Refusing to grade');
  });
});

describe('defaultJobs', () => {
  it('grades one learner per core when strict, and leaves a core free otherwise', () => {
    expect(defaultJobs(true, 2)).toBe(2);
    expect(defaultJobs(false, 2)).toBe(1);
    expect(defaultJobs(false, 1)).toBe(1);
    expect(defaultJobs(false, 8)).toBe(7);
  });
});
