// The confined sandbox against real submissions: the references still pass, and a hostile
// retry-helper that reads secrets, writes outside, phones home, eats memory, loops forever or
// spawns processes is stopped, reported, and leaves nothing behind on the host.
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, writeFileSync, existsSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, gradeWith, nodeTypeCheck, REPO_ROOT, type GradeOptions, type Report } from '../index.ts';

const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const SLOW = 120_000;
const source = fsExerciseSource();
const solution = (id: string, file: string) => readFileSync(join(REPO_ROOT, 'solutions', id, file), 'utf8');
const reference = solution('retry-helper', 'retry.ts');

test('confinement is available here, or the reason says why', () => {
  if (required) expect(status, 'GRADER_REQUIRE_CONFINEMENT=1 but runs cannot be confined').toMatchObject({ available: true });
  if (!status.available) {
    expect(status.reason?.en).toBeTruthy();
    console.warn(`confined sandbox tests skipped: ${status.reason?.en}`);
  }
  expect(status.mechanism).toContain('bubblewrap');
});

async function grade(id: string, files: Record<string, string>, opts: Partial<GradeOptions> = {}, memoryMb = 256): Promise<Report> {
  const sandbox = await ConfinedSandbox.create({ memoryMb, maxProcesses: 128 });
  try {
    return await gradeWith({ exerciseId: id, files, lang: 'en' }, sandbox, { source, typecheck: false, ...opts });
  } finally {
    await sandbox.dispose();
    expect(existsSync(sandbox.root), 'the workspace is removed').toBe(false);
  }
}

/** Host processes whose command line contains `marker` (none may outlive a run). */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) out.push(Number(pid));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/**
 * The processes with `marker` still alive after a short wait. The kernel kills every process of a pid
 * namespace once its init (bwrap's) dies, but not in the same instant: under load the run's pipes can
 * close while a detached child is still being killed. Anything alive after `ms` really outlived the run.
 */
async function survivorsWith(marker: string, ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = processesWith(marker);
  while (alive.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    alive = processesWith(marker);
  }
  return alive;
}

/** Runs `start` with one end of a connected pair of Unix sockets (what strict grading hands a learner's process). */
async function withSocket<T>(start: (socket: Socket) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'confined-socket-'));
  const server = createServer();
  await new Promise<void>((r) => server.listen(join(dir, 's.sock'), r));
  const accepted = new Promise<Socket>((r) => server.once('connection', r));
  const near = connect(join(dir, 's.sock'));
  const far = await accepted;
  try {
    return await start(far);
  } finally {
    far.destroy();
    near.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (r: Report) =>
  JSON.stringify({ status: r.status, message: r.message, failing: r.tests.filter((t) => t.status !== 'pass').slice(0, 3) }).slice(0, 2000);
const token = `s3cr3t-${Math.random().toString(36).slice(2)}`;
const markerNumber = `4242.${Math.floor(Math.random() * 1e9)}`;

describe.skipIf(!status.available).concurrent('ConfinedSandbox', () => {
  // A secret beside the workspaces (world-readable, so only the confinement can keep it out),
  // a world-writable folder a submission must not write to, and servers on the host.
  const outside = mkdtempSync(join(tmpdir(), 'confined-outside-'));
  const secret = join(outside, 'secret.txt');
  const planted = join(outside, 'planted.txt');
  const hostTmpFile = join(tmpdir(), `confined-escape-${token}.txt`);
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  const servers: Array<{ host: string; server: Server; connections: number }> = [];

  beforeAll(async () => {
    writeFileSync(secret, token);
    chmodSync(outside, 0o777);
    chmodSync(secret, 0o644);
    for (const host of ['127.0.0.1', ...(external ? [external] : [])]) {
      const entry = { host, server: createServer((s) => s.destroy()), connections: 0 };
      entry.server.on('connection', () => entry.connections++);
      await new Promise<void>((r) => entry.server.listen(0, host, r));
      servers.push(entry);
    }
  });
  afterAll(() => {
    for (const s of servers) s.server.close();
    rmSync(outside, { recursive: true, force: true });
    rmSync(hostTmpFile, { force: true });
  });
  const port = (host: string) => (servers.find((s) => s.host === host)!.server.address() as { port: number }).port;

  test('the retry-helper reference passes, type check included', { timeout: SLOW }, async () => {
    const report = await grade('retry-helper', { 'retry.ts': reference }, { typecheck: nodeTypeCheck() }, 1024);
    expect(report.status, summary(report)).toBe('pass');
    expect(report.typeErrors).toEqual([]);
  });

  test('the deadline-middleware reference passes (its suite serves HTTP on its own loopback, and spawns Node)', { timeout: SLOW }, async () => {
    const report = await grade('deadline-middleware', { 'deadline.ts': solution('deadline-middleware', 'deadline.ts') }, {}, 1024);
    expect(report.status, summary(report)).toBe('pass');
    expect(report.tests.some((t) => t.rule === 'D8' && t.status === 'pass')).toBe(true);
  });

  test('a submission cannot read, write or connect outside its sandbox, and the report says what it tried', { timeout: SLOW }, async () => {
    const targets = [['127.0.0.1', port('127.0.0.1')], ...(external ? [[external, port(external)]] : [])];
    const attack = `
import { readFileSync, writeFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
const out: string[] = [];
const tryIt = (label: string, f: () => string) => { try { out.push(label + ' ' + f()); } catch (e: any) { out.push(label + ' ' + e.code); } };
tryIt('read secret:', () => readFileSync(${JSON.stringify(secret)}, 'utf8'));
tryIt('read repo:', () => readFileSync(${JSON.stringify(join(REPO_ROOT, 'package.json'))}, 'utf8').slice(0, 40));
tryIt('read shadow:', () => readFileSync('/etc/shadow', 'utf8').slice(0, 40));
tryIt('read passwd:', () => readFileSync('/etc/passwd', 'utf8').slice(0, 60));
tryIt('write outside:', () => (writeFileSync(${JSON.stringify(planted)}, 'x'), 'wrote'));
tryIt('write host tmp:', () => (writeFileSync(${JSON.stringify(hostTmpFile)}, 'x'), 'wrote in private /tmp'));
tryIt('link:', () => (unlinkSync('grader-progress.jsonl'), symlinkSync(${JSON.stringify(secret)}, 'grader-progress.jsonl'), 'linked'));
const tcp = (host: string, port: number) => new Promise<string>((done) => {
  const s = connect({ host, port });
  s.once('connect', () => { s.destroy(); done('connected'); });
  s.once('error', (e: any) => done(e.code));
  setTimeout(() => { s.destroy(); done('no answer'); }, 1500);
});
for (const [host, port] of ${JSON.stringify(targets)} as Array<[string, number]>) out.push('tcp ' + host + ': ' + await tcp(host, port));
throw new Error('ATTACKS ' + out.join(' | '));
`;
    const report = await grade('retry-helper', { 'retry.ts': attack + reference });
    const text = JSON.stringify(report);
    expect(report.status, summary(report)).toBe('error');
    expect(report.message, summary(report)).toContain('ATTACKS');
    expect(report.message).toContain('read secret: ENOENT');
    expect(report.message).toContain('read repo: ENOENT');
    expect(report.message).toContain('read shadow: ENOENT');
    expect(report.message).toMatch(/read passwd: grader:x:\d+/); // its own one-line passwd
    expect(report.message).toMatch(/write outside: (ENOENT|EROFS|EACCES)/);
    expect(report.message).toContain('tcp 127.0.0.1: ECONNREFUSED'); // its own loopback: nobody listens
    if (external) expect(report.message).toMatch(new RegExp(`tcp ${external.replaceAll('.', '\\.')}: (ENETUNREACH|EHOSTUNREACH|no answer)`));
    expect(text).not.toContain(token);
    expect(text).not.toContain('root:x:0:0');
    expect(existsSync(planted), 'file planted outside').toBe(false);
    expect(existsSync(hostTmpFile), "file written to the host's /tmp").toBe(false);
    expect(servers.map((s) => [s.host, s.connections])).toEqual(servers.map((s) => [s.host, 0]));
  });

  test('unbounded memory is stopped at the memory limit and reported as such', { timeout: SLOW }, async () => {
    // Inside the function every test calls: the first test to call it is named in the report.
    const anchor = '  budget?.deposit();\n  let attempts = 0;';
    const hog = reference.replace(anchor, '  const hoard: Buffer[] = [];\n  for (;;) hoard.push(Buffer.alloc(1 << 20, 1));\n' + anchor);
    expect(hog).not.toBe(reference);
    const report = await grade('retry-helper', { 'retry.ts': hog }, { testTimeoutMs: 20_000, runTimeoutMs: 60_000 });
    expect(report.status, summary(report)).toBe('error');
    expect(report.message, summary(report)).toMatch(/^The run was stopped: it used more than 256 MB of memory while test "R\d+ [^"]+" ran/);
    expect(report.tests.find((t) => t.status === 'error')?.details).toContain('256 MB');
  });

  test('kept warm (the local runner, strict grading), a round keeps the limits: memory stops it, the next round starts afresh', { timeout: SLOW }, async () => {
    const sandbox = await ConfinedSandbox.create({ memoryMb: 256, maxProcesses: 128 });
    const warmGrade = (text: string, opts: Partial<GradeOptions> = {}) =>
      gradeWith({ exerciseId: 'retry-helper', files: { 'retry.ts': text }, lang: 'en' }, sandbox, { source, typecheck: false, warm: true, ...opts });
    try {
      const first = await warmGrade(reference);
      expect(first.status, summary(first)).toBe('pass');
      const anchor = '  budget?.deposit();\n  let attempts = 0;';
      const hog = reference.replace(anchor, '  const hoard: Buffer[] = [];\n  for (;;) hoard.push(Buffer.alloc(1 << 20, 1));\n' + anchor);
      expect(hog).not.toBe(reference);
      const stopped = await warmGrade(hog, { testTimeoutMs: 20_000, runTimeoutMs: 60_000 });
      expect(stopped.status, summary(stopped)).toBe('error');
      expect(stopped.message, summary(stopped)).toMatch(/used more than 256 MB of memory/);
      const again = await warmGrade(reference);
      expect(again.status, `the next round after the kill: ${summary(again)}`).toBe('pass');
      expect(again.counts).toEqual(first.counts);
    } finally {
      await sandbox.dispose();
    }
  });

  test('an endless loop at import is killed at the time limit, with the process it spawned', { timeout: SLOW }, async () => {
    const marker = `${markerNumber}1`;
    const looping = `
import { spawn } from 'node:child_process';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${marker}'], { detached: true, stdio: 'ignore' }).unref();
spawn('sleep', ['${marker}'], { detached: true, stdio: 'ignore' }).unref();
while (true) {}
${reference}`;
    const started = performance.now();
    const report = await grade('retry-helper', { 'retry.ts': looping }, { runTimeoutMs: 4000, watchdogIntervalMs: 0 });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(report.status, summary(report)).toBe('error');
    expect(report.message).toMatch(/stopped after \d+ ms before any test finished/);
    expect(await survivorsWith(marker), 'processes the submission started').toEqual([]);
  });

  test('a workspace 6 KB deep (past PATH_MAX) and locked folders are removed with the sandbox', { timeout: SLOW }, async () => {
    const sandbox = await ConfinedSandbox.create({ memoryMb: 256, maxProcesses: 128 });
    const script = `
const fs = require('node:fs');
for (let depth = 0; depth < 31; depth++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); }
fs.writeFileSync('bottom.txt', 'x');
fs.mkdirSync('locked'); fs.writeFileSync('locked/f', 'x'); fs.chmodSync('locked', 0); fs.chmodSync('.', 0);`;
    const run = await sandbox.run('node', ['-e', script], { timeoutMs: 20_000 });
    expect(run.exitCode, run.output).toBe(0);
    expect(readdirSync(sandbox.root)).toContain('d'.repeat(200));
    await sandbox.dispose();
    expect(existsSync(sandbox.root), 'the workspace is removed').toBe(false);
  });

  test("a learner's process writes into a private tmpfs: a full disk or too many files stop it, and the host's disk holds nothing of it", {
    timeout: SLOW,
  }, async () => {
    const sandbox = await ConfinedSandbox.create({ memoryMb: 256, maxProcesses: 128, learnerDiskMb: 8, learnerMaxFiles: 300 });
    try {
      await sandbox.mount({ 'src/own.txt': 'the grader wrote this' });
      const learner = (script: string) => withSocket((socket) => sandbox.runWithSocket('node', ['-e', script], { timeoutMs: 30_000 }, socket));
      const fill = await learner(`
const fs = require('node:fs');
const chunk = Buffer.alloc(1 << 20, 1);
try { for (let i = 0; i < 64; i++) fs.appendFileSync('big.bin', chunk); console.log('wrote 64 MB'); } catch (e) { console.log('write:', e.code); }
setInterval(() => {}, 1000);`);
      expect(fill.limit, fill.output).toEqual({ kind: 'disk', mb: 8 });
      // The watcher may stop it the moment the disk is full, before the failed write is printed;
      // either way it never wrote past the 8 MB.
      expect(fill.output).not.toContain('wrote 64 MB');
      if (fill.output.trim() !== '') expect(fill.output).toContain('write: ENOSPC');
      const files = await learner(`
const fs = require('node:fs');
for (let i = 0; i < 100000; i++) fs.writeFileSync('/tmp/f' + i, '');
setInterval(() => {}, 1000);`);
      expect(files.limit, files.output).toEqual({ kind: 'files', count: 300 });
      // Its own files are there to read, not to change; nothing it wrote reached the host.
      const own = await learner(`
const fs = require('node:fs');
const out = [fs.readFileSync('src/own.txt', 'utf8')];
try { fs.writeFileSync('src/own.txt', 'x'); } catch (e) { out.push(e.code); }
fs.writeFileSync('mine.txt', 'x');
out.push(fs.readdirSync('.').sort().join(','), process.execPath, fs.readFileSync('/proc/1/cmdline', 'utf8').replaceAll('\\0', ' '));
console.log(JSON.stringify(out));`);
      const [text, writeError, listing, execPath, cmdline] = JSON.parse(own.output.trim().split('\n').at(-1)!) as string[];
      expect(text).toBe('the grader wrote this');
      expect(writeError).toBe('EROFS');
      expect(listing).toBe('mine.txt,src'); // no node_modules: a learner's process needs no package
      expect(execPath).toBe('/opt/node/bin/node');
      expect(cmdline, "pid 1's command line names no host folder").not.toContain(REPO_ROOT);
      expect(cmdline).not.toContain('--ro-bind');
      expect(readdirSync(sandbox.root).sort()).toEqual(['node_modules', 'src']);
      expect(sandbox.learnerWrites.length).toBe(3);
    } finally {
      await sandbox.dispose();
    }
  });

  test('a fork bomb hits the process limit, is reported, and nothing outlives the run', { timeout: SLOW }, async () => {
    const marker = `${markerNumber}2`;
    const bomb = `
import { spawn } from 'node:child_process';
let started = 0, refused = 0;
for (let i = 0; i < 300; i++) {
  const child = spawn('sleep', ['${marker}'], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  if (child.pid === undefined) refused++; else started++;
  child.unref();
}
await new Promise((r) => setTimeout(r, 300));
throw new Error('FORKS started ' + started + ', refused ' + refused);
${reference}`;
    const report = await grade('retry-helper', { 'retry.ts': bomb });
    expect(report.status, summary(report)).toBe('error');
    expect(report.message, summary(report)).toMatch(/FORKS started \d+, refused [1-9]\d*/);
    expect(await survivorsWith(marker), 'processes the submission started').toEqual([]);
  });
});
