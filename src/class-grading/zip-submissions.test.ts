import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_SUBMISSION_BYTES } from '../assignments/file-schemas.ts';
import { flatName, readSubmissionsZip } from './zip-submissions.ts';

describe('a zip of submissions as an LMS downloads it', () => {
  it('Moodle: one folder per learner, the file under its own name; every *.json at any depth, its path in its name', () => {
    const zip = zipSync({
      'Nguyễn Văn An_123456_assignsubmission_file': { 'submission-asg-x-an.json': strToU8('{"a":1}') },
      'Trần Bình_123457_assignsubmission_file': { 'submission-asg-x-binh.json': strToU8('{"b":2}'), 'notes.txt': strToU8('hi') },
    });
    const read = readSubmissionsZip(zip);
    if (!read.ok) throw new Error('unread');
    expect(Object.keys(read.value.files).sort()).toEqual([
      'Nguyễn Văn An_123456_assignsubmission_file__submission-asg-x-an.json',
      'Trần Bình_123457_assignsubmission_file__submission-asg-x-binh.json',
    ]);
    expect(new TextDecoder().decode(read.value.files['Trần Bình_123457_assignsubmission_file__submission-asg-x-binh.json'])).toBe('{"b":2}');
    expect(read.value.notRead).toEqual([{ file: 'Trần Bình_123457_assignsubmission_file/notes.txt', reason: { key: 'notRead.notJson', params: {} } }]);
  });

  it('Canvas: flat, renamed files (LATE marks included), read as they are', () => {
    const zip = zipSync({ 'nguyenvanan_LATE_123_456_submission-asg-x-an.json': strToU8('{}'), 'tranbinh_124_457_submission-asg-x-binh-1.json': strToU8('{}') });
    const read = readSubmissionsZip(zip);
    expect(read.ok && Object.keys(read.value.files).sort()).toEqual([
      'nguyenvanan_LATE_123_456_submission-asg-x-an.json',
      'tranbinh_124_457_submission-asg-x-binh-1.json',
    ]);
  });

  it('never writes outside its folder, and leaves out what is too big or not a zip', () => {
    expect(flatName('../../etc/passwd.json')).toBe('etc__passwd.json');
    expect(flatName('/abs/x:y*.json')).toBe('abs__x_y_.json');
    const big = zipSync({ 'big.json': new Uint8Array(MAX_SUBMISSION_BYTES + 1) });
    const read = readSubmissionsZip(big);
    expect(read.ok && read.value).toEqual({
      files: {},
      notRead: [{ file: 'big.json', reason: { key: 'notRead.tooBig', params: { size: MAX_SUBMISSION_BYTES + 1, max: MAX_SUBMISSION_BYTES } } }],
    });
    const twice = readSubmissionsZip(zipSync({ 'a/x.json': strToU8('1'), 'a__x.json': strToU8('2') }));
    expect(twice.ok && Object.keys(twice.value.files).sort()).toEqual(['a__x-2.json', 'a__x.json']);
    const notZip = readSubmissionsZip(strToU8('not a zip at all'));
    expect(notZip.ok ? '' : notZip.problem.key).toBe('usage.zipUnreadable');
  });
});
