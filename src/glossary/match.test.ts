import { describe, expect, it } from 'vitest';
import { findAvoided, linkFirstMentions, phrasePattern, termMatcher } from './match.ts';
import { glossarySchema } from './schema.ts';

const glossary = glossarySchema.parse({
  entries: [
    {
      id: 'retry',
      en: { term: 'retry', definition: 'Sending a request again after it failed.', match: ['retry', 'retries'] },
      vi: { term: 'retry', definition: 'Gửi lại một request sau khi nó lỗi.', match: ['retry'] },
    },
    {
      id: 'retry-budget',
      en: { term: 'retry budget', definition: 'A cap on retries shared by many requests.', match: ['retry budget'] },
      vi: { term: 'retry budget', definition: 'Giới hạn số retry dùng chung cho nhiều request.', match: ['retry budget'], avoid: ['ngân sách'] },
    },
    {
      id: 'fire',
      en: { term: 'fire', definition: 'A timer fires when its delay has passed.' },
      vi: { term: 'kích hoạt', definition: 'Timer kích hoạt khi hết khoảng delay.', avoid: ['nổ'] },
    },
  ],
});

const link = (text: string, lang: 'vi' | 'en' = 'en', seen = new Set<string>()) => linkFirstMentions(text, termMatcher(glossary, lang), seen);

describe('linkFirstMentions', () => {
  it('marks only the first mention of each term', () => {
    expect(link('A retry, then another retry.')).toEqual([{ text: 'A ' }, { text: 'retry', entryId: 'retry' }, { text: ', then another retry.' }]);
  });

  it('prefers the longest form, so "retry budget" links to its own entry', () => {
    expect(link('The retry budget caps each retry.')).toEqual([
      { text: 'The ' },
      { text: 'retry budget', entryId: 'retry-budget' },
      { text: ' caps each ' },
      { text: 'retry', entryId: 'retry' },
      { text: '.' },
    ]);
  });

  it('matches whole words only, in any letter case', () => {
    expect(link('Retryable errors are not a Retry.')).toEqual([{ text: 'Retryable errors are not a ' }, { text: 'Retry', entryId: 'retry' }, { text: '.' }]);
  });

  it('remembers what the lesson already linked across calls', () => {
    const seen = new Set<string>();
    link('One retry.', 'en', seen);
    expect(link('Another retry.', 'en', seen)).toEqual([{ text: 'Another retry.' }]);
  });

  it('leaves text without a term as one segment', () => {
    expect(link('Nothing here.')).toEqual([{ text: 'Nothing here.' }]);
  });
});

describe('findAvoided', () => {
  it('finds a given-up variant with its line and the term to use instead', () => {
    expect(findAvoided('Dòng một.\nHết ngân sách rồi.', glossary, 'vi')).toEqual([
      { entryId: 'retry-budget', found: 'ngân sách', preferred: 'retry budget', line: 2 },
    ]);
  });

  it('does not see a variant inside a longer Vietnamese word', () => {
    expect(findAvoided('Ba điều nổi bật; timer nổ.', glossary, 'vi').map((a) => a.found)).toEqual(['nổ']);
  });

  it('checks each language against its own list', () => {
    expect(findAvoided('ngân sách', glossary, 'en')).toEqual([]);
  });
});

describe('phrasePattern', () => {
  it('escapes characters that mean something in a regular expression', () => {
    expect('p99.9 and p9909'.match(phrasePattern(['p99.9'])!)).toEqual(['p99.9']);
  });
});

describe('glossarySchema', () => {
  it('refuses a form that links to two entries', () => {
    const twice = {
      entries: [
        { id: 'a', en: { term: 'a', definition: 'x'.repeat(20), match: ['same'] }, vi: { term: 'a', definition: 'x'.repeat(20) } },
        { id: 'b', en: { term: 'b', definition: 'x'.repeat(20), match: ['Same'] }, vi: { term: 'b', definition: 'x'.repeat(20) } },
      ],
    };
    expect(glossarySchema.safeParse(twice).error?.issues.map((i) => i.message)).toEqual(['en: "Same" links to both "a" and "b"']);
  });

  it('refuses a duplicate id', () => {
    const side = { term: 't', definition: 'x'.repeat(20) };
    const dup = {
      entries: [
        { id: 'a', en: side, vi: side },
        { id: 'a', en: side, vi: side },
      ],
    };
    expect(glossarySchema.safeParse(dup).success).toBe(false);
  });
});
