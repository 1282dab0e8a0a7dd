// Whether this machine can confine a graded run, and the host facts a confined run needs.
// Mechanism: bubblewrap (unprivileged user + mount + pid + network namespaces) with kernel
// rlimits set by prlimit(1) inside; see docs/security.md ("The confined sandbox").
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Bilingual } from '../../i18n/index.ts';
import { bwrapArgs, type BwrapPlan, type SystemEntry } from './bwrap-args.ts';

export interface ConfinementStatus {
  available: boolean;
  /** What confines runs here, or what would have. */
  mechanism: string;
  /**
   * Why it is not available, with what to do about it, in both languages: it reaches instructors
   * (grade:class refuses) and learners (check --strict, the local runner's banner) inside sentences
   * of their language. A tool's own output, quoted, stays as the tool said it.
   */
  reason?: Bilingual;
}

/**
 * The tools that confine a run, by name only: the name reaches learners and instructors inside a
 * sentence of their language ("trong sandbox cô lập (…)"), so it carries no English words of its
 * own. What each tool does is in docs/security.md.
 */
export const MECHANISM = 'bubblewrap + prlimit';

/** What a refusal says when whatever reported "unavailable" gave no reason (the probe always gives one). */
export const NO_REASON: Bilingual = { vi: 'không rõ lý do', en: 'no reason given' };

/** An executable on PATH (or at one of `fallbacks`), or undefined. */
export function findExecutable(name: string, fallbacks: string[] = []): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const path of [...dirs.map((d) => join(d, name)), ...fallbacks]) {
    try {
      if (statSync(path).isFile()) return realpathSync(path);
    } catch {
      // not there
    }
  }
  return undefined;
}

/** /usr read-only, and the top-level system folders that are either links into it or real folders. */
export function systemEntries(): SystemEntry[] {
  const out: SystemEntry[] = [];
  for (const path of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      const s = lstatSync(path);
      if (s.isSymbolicLink()) out.push({ path, symlink: readlinkSync(path) });
      else if (s.isDirectory()) out.push({ path });
    } catch {
      // absent on this system
    }
  }
  return out;
}

/**
 * Who runs the sandbox on the host. Run as root, the grader hands each sandbox its own unused
 * uid: root inside a user namespace would still be root for the kernel's process limit and for
 * any file a mistake left reachable. Otherwise the sandbox runs as the instructor's own user.
 */
export function sandboxOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = 200_000 + Math.floor(Math.random() * 60_000);
  return { uid: id, gid: id };
}

/** The minimal /etc a run gets: localhost, its own user, nothing of the host's. */
export function etcFiles(home: string, owner: { uid: number; gid: number }): Record<string, string> {
  return {
    hosts: '127.0.0.1 localhost\n::1 localhost\n',
    passwd: `grader:x:${owner.uid}:${owner.gid}:grader:${home}:/usr/sbin/nologin\n`,
    group: `grader:x:${owner.gid}:\n`,
    'nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files\n',
  };
}

let cached: ConfinementStatus | undefined;

/** Whether runs can be confined on this machine (probed once: a tiny confined Node run). */
export function confinementStatus(): ConfinementStatus {
  cached ??= probeConfinement();
  return cached;
}

/** The probe itself, uncached (tests run it with a PATH that lacks a tool). */
export function probeConfinement(): ConfinementStatus {
  const unavailable = (reason: Bilingual): ConfinementStatus => ({ available: false, mechanism: MECHANISM, reason });
  if (process.platform !== 'linux') {
    return unavailable({
      vi: `cô lập cần namespace của Linux, mà máy này chạy ${process.platform}. Hãy chấm code không đáng tin trong một VM hoặc container Linux.`,
      en: `confinement needs Linux namespaces; this machine runs ${process.platform}. Grade untrusted code in a Linux VM or container.`,
    });
  }
  const bwrap = findExecutable('bwrap');
  if (!bwrap) {
    return unavailable({
      vi: 'máy chưa cài bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap).',
      en: 'bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap).',
    });
  }
  const prlimit = findExecutable('prlimit', ['/usr/bin/prlimit']);
  if (!prlimit?.startsWith('/usr/')) {
    return unavailable({ vi: 'máy chưa cài prlimit (gói util-linux) dưới /usr.', en: 'prlimit (util-linux) is not installed under /usr.' });
  }

  const base = mkdtempSync(join(tmpdir(), 'grade-probe-'));
  try {
    const owner = sandboxOwner();
    const who = owner ?? { uid: process.getuid!(), gid: process.getgid!() };
    const etc: Record<string, string> = {};
    for (const [name, text] of Object.entries(etcFiles(base, who))) {
      writeFileSync(join(base, name), text);
      etc[name] = join(base, name);
    }
    if (owner) chownSync(base, owner.uid, owner.gid);
    const plan: BwrapPlan = {
      system: systemEntries(),
      etc,
      readOnly: [realpathSync(process.execPath)],
      workspace: base,
      nodeModules: {},
      tmpBytes: 1 << 20,
      env: { PATH: '/usr/bin:/bin' },
      prlimit,
      limits: { processes: 64, fileBytes: 1 << 20, dataBytes: 1 << 30 },
      command: realpathSync(process.execPath),
      // Inside, the only network interface must be loopback.
      args: ['-e', "process.exit(Object.keys(require('os').networkInterfaces()).join() === 'lo' ? 0 : 3)"],
    };
    const r = spawnSync(bwrap, bwrapArgs(plan), { cwd: base, encoding: 'utf8', timeout: 15_000, ...(owner ?? {}), env: { PATH: '/usr/bin:/bin' } });
    if (r.status === 0) return { available: true, mechanism: MECHANISM };
    const said = `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim().slice(0, 300);
    const exit = r.status ?? r.signal;
    const hint = failureHint(said, owner);
    return unavailable({
      vi: `bubblewrap không khởi động được một lần chạy cô lập (exit ${exit}): ${said || 'không in ra gì'}.${hint ? ` ${hint.vi}` : ''}`,
      en: `bubblewrap could not start a confined run (exit ${exit}): ${said || 'no output'}.${hint ? ` ${hint.en}` : ''}`,
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** What to do about the two failures of bubblewrap that have a known cause. */
export function failureHint(said: string, owner: { uid: number } | undefined): Bilingual | undefined {
  if (/Can't find source path/i.test(said)) {
    if (!owner) return undefined;
    return {
      vi: `Khi chạy bằng root, mỗi sandbox chạy dưới một user không có đặc quyền (uid ${owner.uid}); user đó phải đọc được Node và repository (chmod o+rx cho các thư mục bên trên chúng).`,
      en: `Run as root, each sandbox runs as an unprivileged user (uid ${owner.uid}), who must be able to read Node and the repository (chmod o+rx on the folders above them).`,
    };
  }
  if (/uid map|user namespace|Operation not permitted|Permission denied/i.test(said)) {
    return {
      vi: 'Có vẻ user namespace không đặc quyền đang bị tắt (sysctl kernel.unprivileged_userns_clone=1, hoặc một AppArmor profile cho bwrap trên Ubuntu 24.04+).',
      en: 'Unprivileged user namespaces look disabled (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap on Ubuntu 24.04+).',
    };
  }
  return undefined;
}
