// npm start prints the URL with its token once; a learner whose tab lost it presses Enter in that terminal.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { announcement, reminder, reprintOnEnter } from './announce.ts';

const base = 'http://localhost:4321';
const token = 't'.repeat(43);
const terminal = () => Object.assign(new PassThrough(), { isTTY: true });
const settle = () => new Promise((r) => setImmediate(r));

describe('where learner code runs, as the banner says it', () => {
  test('unconfined: a warning and the reason, each in both languages, and no English inside the Vietnamese line', () => {
    const reason = { vi: 'máy chưa cài bubblewrap', en: 'bubblewrap is not installed' };
    const text = announcement(base, token, false, { confined: false, mechanism: 'plain child processes', reason });
    expect(text).toContain('WARNING: learner code is NOT confined');
    expect(text).toContain('CẢNH BÁO');
    expect(text).toContain('No confinement here: bubblewrap is not installed');
    const vietnamese = text.split('\n').find((l) => l.includes('Máy này không cô lập được'));
    expect(vietnamese).toBe('  Máy này không cô lập được: máy chưa cài bubblewrap');
  });

  test('confined: the tools by name, in both languages', () => {
    const text = announcement(base, token, false, { confined: true, mechanism: 'bubblewrap + prlimit' });
    expect(text).toContain('Learner code runs confined: bubblewrap + prlimit.');
    expect(text).toContain('sandbox cô lập: bubblewrap + prlimit.');
    expect(text).not.toContain('WARNING');
  });
});

describe('printing the URL again', () => {
  test('Enter (or u and Enter) in the terminal prints the URL with the token again; other lines print nothing', async () => {
    const input = terminal();
    const printed: string[] = [];
    expect(
      reprintOnEnter(
        input,
        (t) => printed.push(t),
        () => reminder(base, token),
        {},
      ),
    ).toBe(true);
    input.write('\n');
    await settle();
    expect(printed).toEqual([reminder(base, token)]);
    expect(printed[0]).toContain(`Course site: ${base}/#runner-token=${token}\n`);
    input.write('u\n');
    input.write('something else\n');
    await settle();
    expect(printed).toHaveLength(2);
  });

  test('a server without a terminal (a pipe, /dev/null, CI) never reads its input, and does not offer it', () => {
    expect(
      reprintOnEnter(
        new PassThrough(),
        () => undefined,
        () => '',
        {},
      ),
    ).toBe(false);
    expect(
      reprintOnEnter(
        terminal(),
        () => undefined,
        () => '',
        { CI: 'true' },
      ),
    ).toBe(false);
    expect(announcement(base, token, false)).not.toContain('Enter');
    expect(announcement(base, token, false, undefined, { reprint: true })).toContain(
      'Press Enter here to print this URL again. / Bấm Enter tại đây để in lại URL này.',
    );
  });
});
