// The submissions folder is read as a regular file at a time: the attacks were a symlink (followed, and
// the target's first bytes quoted into the report) and a FIFO named *.json (grade-class hung forever).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cm } from './messages.ts';
import { filesNotRead, nodeClassIO, previousFolderName, readRegularFile, writeOutputs } from './node-io.ts';
import { UnreadableSubmission } from './submission.ts';

let dir: string;
let outside: string;
const noSandbox = async () => {
  throw new Error('not used');
};

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'node-io-'));
  dir = join(root, 'subs');
  outside = join(root, 'private.txt');
  mkdirSync(dir);
  writeFileSync(outside, 'root:$6$secret-hash:0:0');
  writeFileSync(join(dir, 'good.json'), '{"ok":true}');
  symlinkSync(outside, join(dir, 'link.json'));
  mkdirSync(join(dir, 'folder.json'));
  spawnSync('mkfifo', [join(dir, 'fifo.json')]);
});
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableSubmission);
    const reason = (error as UnreadableSubmission).reason;
    return cm('en', reason.key, reason.params);
  }
  throw new Error('read, but should have been refused');
};

describe('reading a submissions folder', () => {
  test('lists links and FIFOs named *.json (so each is reported) but no folders, with the size of the link itself', async () => {
    const io = nodeClassIO(dir, noSandbox);
    const listed = await io.listSubmissions();
    expect(listed.map((f) => f.name)).toEqual(['fifo.json', 'good.json', 'link.json']);
    expect(io.readSubmission('good.json')).toBe('{"ok":true}');
  });

  test('a symbolic link is never followed, and nothing of its target reaches the reason', () => {
    const reason = refusal(() => readRegularFile(join(dir, 'link.json')));
    expect(reason).toMatch(/^a symbolic link, not a file/);
    expect(reason).not.toContain('secret');
  });

  test('a FIFO is refused at once instead of waiting forever for a writer', { timeout: 5_000 }, () => {
    const started = Date.now();
    expect(refusal(() => readRegularFile(join(dir, 'fifo.json')))).toBe('not a regular file (a FIFO): only plain files are read');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('a device, a folder, a missing file and an oversized file are refused with the reason', () => {
    expect(refusal(() => readRegularFile('/dev/zero'))).toBe('not a regular file (a device): only plain files are read');
    expect(refusal(() => readRegularFile(join(dir, 'folder.json')))).toMatch(/^not a regular file \(a directory\)/);
    expect(refusal(() => readRegularFile(join(dir, 'gone.json')))).toBe('the file could not be opened (ENOENT)');
    expect(refusal(() => readRegularFile(join(dir, 'good.json'), 5))).toBe('the file is 11 bytes, over the 5-byte limit for a submission');
  });
});

describe('what grade-class writes and leaves', () => {
  test('lists what it does not read in the submissions folder', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'a note');
    expect(await filesNotRead(dir)).toEqual([
      { file: 'folder.json/', reason: { key: 'notRead.folder', params: {} } },
      { file: 'notes.txt', reason: { key: 'notRead.notJson', params: {} } },
    ]);
  });

  test('keeps the previous run’s outputs in a dated folder instead of overwriting them', async () => {
    const out = join(dir, '..', 'out');
    const first = new Date('2026-12-01T19:30:05.123Z');
    await writeOutputs(out, { 'gradebook.csv': 'run 1', 'feedback/an.md': 'An, run 1' }, first);
    const second = new Date('2026-12-01T20:00:00.000Z');
    await writeOutputs(out, { 'gradebook.csv': 'run 2', 'feedback/an.md': 'An, run 2', 'feedback/binh.md': 'Bình' }, second);
    expect(previousFolderName(second)).toBe('previous-2026-12-01T20-00-00Z');
    expect(readFileSync(join(out, 'gradebook.csv'), 'utf8')).toBe('run 2');
    expect(readFileSync(join(out, 'previous-2026-12-01T20-00-00Z', 'gradebook.csv'), 'utf8')).toBe('run 1');
    expect(readFileSync(join(out, 'previous-2026-12-01T20-00-00Z', 'feedback', 'an.md'), 'utf8')).toBe('An, run 1');
    expect(existsSync(join(out, 'previous-2026-12-01T20-00-00Z', 'feedback', 'binh.md'))).toBe(false); // nothing to keep
    expect(readdirSync(out).sort()).toEqual(['feedback', 'gradebook.csv', 'previous-2026-12-01T20-00-00Z']);
  });
});
