/**
 * A zip of submissions as an LMS hands it back: Moodle's "Download all submissions" (one folder per
 * learner, `Nguyễn Văn An_123456_assignsubmission_file/submission-….json`, or the same as one flat
 * name), Canvas's "Download Submissions" (flat, renamed `nguyenvanan_123_456_submission-….json`,
 * `_LATE_` for a late one). Every `*.json` entry, at any depth, becomes one file of a plain folder,
 * its path flattened into its name (`/` → `__`, only safe characters kept), which grade-class then
 * reads as any submissions folder; nothing else is extracted. Bounded: the zip itself, the number of
 * entries, and each entry's declared size, which fflate's unzip allocates exactly and never exceeds
 * (an entry larger than a submission may be is listed, not extracted). Pure but for fflate.
 */
import { unzipSync } from 'fflate';
import { MAX_SUBMISSION_BYTES } from '../assignments/index.ts';
import type { Message } from './messages.ts';

export const MAX_ZIP_BYTES = 512 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 20_000;

export interface NotRead {
  file: string;
  reason: Message;
}

export interface ZipContents {
  /** Flattened name -> bytes, for the submissions folder. */
  files: Record<string, Uint8Array>;
  notRead: NotRead[];
}

/** `Nguyễn Văn An_12_assignsubmission_file/sub.json` -> `Nguyễn Văn An_12_assignsubmission_file__sub.json` (letters of any script kept). */
export function flatName(path: string): string {
  return (
    path
      .split('/')
      .filter((seg) => seg && seg !== '.' && seg !== '..')
      .map((seg) => seg.replace(/[^\p{L}\p{N} ._-]+/gu, '_'))
      .join('__')
      .replace(/^[.\s]+/, '') || 'entry.json'
  );
}

export type ZipProblem = { key: 'usage.zipTooBig'; params: { size: number; max: number } } | { key: 'usage.zipUnreadable'; params: { detail: string } };

export function readSubmissionsZip(zip: Uint8Array): { ok: true; value: ZipContents } | { ok: false; problem: ZipProblem } {
  if (zip.length > MAX_ZIP_BYTES) return { ok: false, problem: { key: 'usage.zipTooBig', params: { size: zip.length, max: MAX_ZIP_BYTES } } };
  const notRead: NotRead[] = [];
  let entries = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(zip, {
      filter(file) {
        entries++;
        if (entries > MAX_ZIP_ENTRIES) throw new Error(`more than ${MAX_ZIP_ENTRIES} entries`);
        if (file.name.endsWith('/')) return false; // a folder
        if (!file.name.toLowerCase().endsWith('.json')) {
          notRead.push({ file: file.name, reason: { key: 'notRead.notJson', params: {} } });
          return false;
        }
        if (file.originalSize > MAX_SUBMISSION_BYTES) {
          notRead.push({ file: file.name, reason: { key: 'notRead.tooBig', params: { size: file.originalSize, max: MAX_SUBMISSION_BYTES } } });
          return false;
        }
        return true;
      },
    });
  } catch (error) {
    return { ok: false, problem: { key: 'usage.zipUnreadable', params: { detail: error instanceof Error ? error.message : String(error) } } };
  }
  const files: Record<string, Uint8Array> = {};
  for (const [path, bytes] of Object.entries(unzipped)) {
    const base = flatName(path);
    let name = base;
    for (let n = 2; name in files; n++) name = base.replace(/\.json$/i, `-${n}.json`);
    files[name] = bytes;
  }
  return { ok: true, value: { files, notRead } };
}
