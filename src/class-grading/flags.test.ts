// The flags grade-class adds for the instructor to read (never to the grade), and how what a learner
// chose is quoted: on the course's own solutions, copies of them, a table of answers, hostile strings.
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../grading/index.ts';
import { toCsv } from './csv.ts';
import { fileFlags } from './file-flags.ts';
import { flagMessage, limitFlag } from './flags.ts';
import { gradeClass, type ClassGradingIO } from './grade-class.ts';
import { renderReport } from './html.ts';
import { cm, say } from './messages.ts';
import { excerpt, neutral, shownLearner } from './neutral.ts';
import { loadClassContext } from './node-io.ts';
import { gradebookRows, learnerGrade, learnerProblems } from './results.ts';
import { copyFlags, fingerprints, literalShare, MAX_FINGERPRINTS, normalForm, SIMILAR_AT } from './similarity.ts';
import { fakeReport, makeAssignment, makeSubmission } from './testing/test-fixtures.ts';

const solution = (path: string) => readFileSync(join(REPO_ROOT, 'solutions', path), 'utf8');
const starter = (path: string) => readFileSync(join(REPO_ROOT, 'exercises', path), 'utf8');
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
// The CSV and the HTML have line breaks of their own; nothing else of those may be in them.
const UNSAFE_EXCEPT_LINES = /(?![\r\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('what a learner chose is quoted short and neutral', () => {
  test('controls, bidirectional and zero-width characters become U+FFFD, whitespace one space, and the text is cut', () => {
    expect(neutral('An\u001b[31m\u202eB\u200b\n\tC', 80)).toBe('An\uFFFD[31m\uFFFDB\uFFFD C');
    const long = neutral('x'.repeat(500), 80);
    expect([...long].length).toBe(80);
    expect(long.endsWith('…')).toBe(true);
    expect(neutral('Nguyễn Văn An', 80)).toBe('Nguyễn Văn An');
  });

  test('a zero-width non-joiner or joiner inside a name is its spelling and stays; anywhere else it is replaced', () => {
    expect(neutral('محمد\u200Cرضا', 80)).toBe('محمد\u200Cرضا');
    expect(neutral('क्\u200Dष', 80)).toBe('क्\u200Dष');
    expect(neutral('\u200CAn \u200D Bình\u200C', 80)).toBe('\uFFFDAn \uFFFD Bình\uFFFD');
    expect(neutral('A\u200C\u200CB', 80)).toBe('A\uFFFD\uFFFDB');
  });

  test("an excerpt leaves out the grader's temp folders and repository path", () => {
    const message = `ENAMETOOLONG: ${tmpdir()}/grade-confined-AbC123/work/${'d/'.repeat(3000)} at ${REPO_ROOT}/src/x.ts`;
    const quoted = excerpt(message);
    expect([...quoted].length).toBeLessThanOrEqual(200);
    expect(quoted).not.toContain(tmpdir());
    expect(quoted).not.toContain(REPO_ROOT);
  });

  test('a hostile name, file name and error reach the CSV and the HTML neutral and short', async () => {
    const assignment = makeAssignment({ quizzes: [] });
    const hostileName = `\u202e${'\u001b]0;owned\u0007'.repeat(10)}\nAn`.slice(0, 200);
    const files = {
      'a\u001b[2J\u202e.json': JSON.stringify(makeSubmission(assignment, { name: hostileName, email: 'an@x.co' }, { 'retry-helper': { 'retry.ts': 'x' } })),
    };
    const io: ClassGradingIO = {
      listSubmissions: async () => Object.keys(files).map((name) => ({ name, size: 1 })),
      readSubmission: (name) => files[name as keyof typeof files],
      gradeExercise: async () => {
        throw new Error(`could not remove ${tmpdir()}/grade-confined-x1/work/${'d'.repeat(200)}/${'d'.repeat(200)}/\u001b[31m: ENAMETOOLONG`.repeat(15));
      },
    };
    const loaded = await loadClassContext(assignment);
    if (!loaded.ok) throw new Error('no context');
    const grading = await gradeClass(loaded.value, io, { jobs: 1, lang: 'en' });
    const rows = gradebookRows(loaded.value, grading.results, grading.rejected, 'vi');
    const csv = toCsv(rows);
    const html = renderReport({ ctx: loaded.value, results: grading.results, rejected: grading.rejected, lang: 'en', generatedAt: new Date(0), files: 1 });
    for (const text of [csv.slice(1), html]) {
      expect(text).not.toMatch(UNSAFE_EXCEPT_LINES);
      expect(text).not.toContain('d'.repeat(200));
      expect(text).not.toContain(`${tmpdir()}/grade-`);
    }
    const row = rows[1]!;
    expect([...row[0]!].length).toBeLessThanOrEqual(80);
    expect(row.every((cell) => !UNSAFE.test(cell))).toBe(true);
    expect([...row.at(-1)!].length).toBeLessThan(300);
  });

  test('an e-mail address the schema accepted is shown as it is', () => {
    expect(shownLearner({ name: 'Bình', email: 'binh.nguyen+k12@example.edu.vn' })).toEqual({ name: 'Bình', email: 'binh.nguyen+k12@example.edu.vn' });
  });
});

describe('copies, found from tokens', () => {
  const reference = { 'timeout-choice.ts': solution('timeout-choice/timeout-choice.ts') };
  const published = { reference, starter: { 'timeout-choice.ts': starter('timeout-choice/starter/timeout-choice.ts') } };
  const catalogue = (name: string) => ({ 'timeout-choice.ts': solution(`timeout-choice/tampering/${name}.ts`) });

  test('the reference with its comments gone, its names changed and its layout redone has the same form; a one-character bug does not', () => {
    expect(normalForm(catalogue('copy-of-reference'))).toBe(normalForm(reference));
    const floor = { 'timeout-choice.ts': reference['timeout-choice.ts'].replace('Math.ceil(exact)', 'Math.floor(exact)') };
    expect(normalForm(floor)).not.toBe(normalForm(reference));
  });

  test('a copy of the reference, classmates sharing one solution, and honest solutions, each flagged as it deserves', () => {
    const alternative = { 'timeout-choice.ts': solution('timeout-choice/alternatives/cumulative-share.ts') };
    const renamed = { 'timeout-choice.ts': alternative['timeout-choice.ts'].replace(/\bsorted\b/g, 'ordered').replace(/\n\s*\/\/.*$/gm, '') };
    const flags = copyFlags(
      [
        { key: 'copy', who: 'copy@x.co', files: catalogue('copy-of-reference') },
        { key: 'a', who: 'a@x.co', files: alternative },
        { key: 'b', who: 'b@x.co', files: renamed },
        { key: 'honest', who: 'h@x.co', files: { 'timeout-choice.ts': solution('timeout-choice/alternatives/sorted-sample-class.ts') } },
        { key: 'starter', who: 's@x.co', files: published.starter },
        { key: 'starter2', who: 's2@x.co', files: published.starter },
      ],
      published,
    );
    expect(flags.get('copy')).toEqual([{ kind: 'copy-of-reference' }]);
    expect(flags.get('a')).toEqual([{ kind: 'similar', percent: 100, others: ['b@x.co'] }]);
    expect(flags.get('b')).toEqual([{ kind: 'similar', percent: 100, others: ['a@x.co'] }]);
    // Two learners who both handed in the untouched starter share nothing of their own.
    expect(flags.has('honest')).toBe(false);
    expect(flags.has('starter')).toBe(false);
    expect(flags.has('starter2')).toBe(false);
  });

  test('a table of the suite’s answers is mostly literal values; no solution of the course is', () => {
    const table = literalShare(catalogue('lookup-table')['timeout-choice.ts']);
    expect(table.share).toBeGreaterThan(0.8);
    expect(fileFlags(catalogue('lookup-table'))).toEqual([expect.objectContaining({ kind: 'literal-data', file: 'timeout-choice.ts' })]);
    expect(literalShare(reference['timeout-choice.ts']).share).toBeLessThan(0.25);
  });

  test('however large the file, at most MAX_FINGERPRINTS are kept', () => {
    // 300,000 tokens drawn at random from thirty: nearly every run of them is new (1 MB of code shaped so).
    const TOKENS = [
      'a',
      '1',
      '+',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ';',
      ',',
      '.',
      '=',
      'if',
      'for',
      'return',
      '"s"',
      '*',
      '-',
      '<',
      '>',
      '!',
      '?',
      ':',
      '&&',
      '||',
      'new',
      'typeof',
      'of',
      'in',
    ];
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % TOKENS.length;
    const huge = { 'a.ts': Array.from({ length: 300_000 }, () => TOKENS[next()]).join(' ') };
    expect(fingerprints(huge).size).toBe(MAX_FINGERPRINTS);
    expect(SIMILAR_AT).toBeGreaterThan(0.5);
  });
});

describe('hostile files', () => {
  test('a megabyte on one line, 50,000 lines, or bidirectional controls are flagged; the course’s own files are not', () => {
    expect(fileFlags({ 'a.ts': `// self as${' '.repeat(1_000_000)}` })).toEqual([
      { kind: 'unusual-file', file: 'a.ts', kb: 977, lines: 1, longestLine: 1_000_010 },
    ]);
    expect(fileFlags({ 'a.ts': '\n'.repeat(50_000) })[0]).toMatchObject({ kind: 'unusual-file', lines: 50_001 });
    expect(fileFlags({ 'a.ts': "return role !== 'admin\u202e \u2066// check\u2069 \u2066';" })).toEqual([{ kind: 'bidi', file: 'a.ts' }]);
    // Every file of the course a learner could hand in: references, alternatives, starters.
    const courseFiles = ['solutions', 'exercises'].flatMap((top) =>
      readdirSync(join(REPO_ROOT, top), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.includes('tampering') && (top === 'solutions' || f.split(sep).includes('starter')))
        .map((f) => join(REPO_ROOT, top, f)),
    );
    expect(courseFiles.length).toBeGreaterThan(30);
    for (const path of courseFiles) expect(fileFlags({ 'x.ts': readFileSync(path, 'utf8') }), path).toEqual([]);
  });
});

describe('flags are messages in both languages, never a grade', () => {
  test('a learner stopped at its workspace’s limits', () => {
    const [disk] = limitFlag({ kind: 'disk', mb: 16 });
    const [files] = limitFlag({ kind: 'files', count: 1000 });
    expect(limitFlag({ kind: 'memory', mb: 1024 })).toEqual([]);
    expect(say('en', flagMessage('retry-helper', disk!))).toMatch(
      /^retry-helper: the learner’s code filled the 16 MB its workspace may hold and was stopped there/,
    );
    expect(say('vi', flagMessage('retry-helper', disk!))).toMatch(/^retry-helper: code của học viên đã ghi đầy 16 MB/);
    expect(say('en', flagMessage('retry-helper', files!))).toMatch(/more than 1000 files and folders/);
    expect(say('vi', flagMessage('retry-helper', files!))).toMatch(/hơn 1000 file và thư mục/);
    expect(cm('vi', 'problem.copyOfReference', { id: 'x' })).toContain('điểm không đổi');
  });

  test('a flagged learner keeps every point the tests gave', async () => {
    const assignment = makeAssignment({ exercises: ['timeout-choice'], quizzes: [] });
    const loaded = await loadClassContext(assignment);
    if (!loaded.ok) throw new Error('no context');
    const copy = { 'timeout-choice.ts': solution('timeout-choice/tampering/copy-of-reference.ts') };
    const files = { 'a.json': JSON.stringify(makeSubmission(assignment, { name: 'A', email: 'a@x.co' }, { 'timeout-choice': copy })) };
    const io: ClassGradingIO = {
      listSubmissions: async () => [{ name: 'a.json', size: 1 }],
      readSubmission: (name) => files[name as keyof typeof files],
      gradeExercise: async () => fakeReport(['C1', 'C2']),
    };
    const grading = await gradeClass(loaded.value, io, { jobs: 1, lang: 'en' });
    const r = grading.results[0]!;
    expect(learnerProblems(r).map((m) => m.key)).toEqual(['problem.copyOfReference']);
    expect(learnerGrade(assignment, r).percent).toBe(100);
  });
});
