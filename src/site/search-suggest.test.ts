import { describe, expect, it } from 'vitest';
import { buildVocabulary, correctedQuery, editDistance, nearestWord, readableText } from './search-suggest.ts';

const vocabulary = buildVocabulary([
  'jitter jitter jitter retry retry retry budget budget timeout timeout deadline',
  'thời gian chờ của một lời gọi đang chờ; litter',
]);

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('jiter', 'jitter')).toBe(1);
    expect(editDistance('retyr', 'retry')).toBe(1);
    expect(editDistance('budgte', 'budget')).toBe(1);
    expect(editDistance('timeout', 'timeout')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('stops past the limit', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('buildVocabulary', () => {
  it('counts words of three letters or more, most frequent first, with their marks', () => {
    expect(vocabulary.slice(0, 3)).toEqual([
      ['jitter', 3],
      ['retry', 3],
      ['budget', 2],
    ]);
    expect(vocabulary.map(([w]) => w)).toContain('thời');
    expect(vocabulary.map(([w]) => w)).not.toContain('of');
  });

  it('reads a lesson as a reader would: no tags, components, code or link targets', () => {
    const text = readableText(
      '---\ntitle: x\n---\nimport A from "b";\nSee [the post](https://aws.example/x) <SimTable sim="retry-storm" />\n```ts\nconst hidden = 1;\n```\n{props.x} and <a href="/y">words</a>.',
    );
    expect(text).not.toMatch(/SimTable|href|hidden|aws|props|title/);
    expect(text.split(/\s+/).filter(Boolean)).toEqual(['See', '[the', 'post', 'and', 'words', '.']);
  });
});

describe('nearestWord and correctedQuery', () => {
  it('corrects a one-letter typo to the most frequent nearest word', () => {
    expect(nearestWord('jiter', vocabulary)).toBe('jitter'); // not "litter", as near but rarer
    expect(correctedQuery('retyr budget', vocabulary)).toBe('retry budget');
  });

  it('leaves words of the course alone, with or without their marks, and short words', () => {
    expect(nearestWord('jitter', vocabulary)).toBeUndefined();
    expect(nearestWord('thoi', vocabulary)).toBeUndefined();
    expect(nearestWord('ttl', vocabulary)).toBeUndefined();
    expect(correctedQuery('thoi gian cho', vocabulary)).toBeUndefined();
  });

  it('gives nothing for a word far from every word', () => {
    expect(correctedQuery('xyzzyplugh', vocabulary)).toBeUndefined();
  });
});
