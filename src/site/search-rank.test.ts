import { describe, expect, it } from 'vitest';
import { markedWords, onlyOneLetterMatches, rankResults } from './search-rank.ts';

const page = (title: string, content: string, excerpt = '') => ({ title, content, excerpt });

describe('rankResults', () => {
  it('puts the pages with the whole phrase first, with or without diacritics, title before text', () => {
    const common = page('Retry budget', 'áp dụng cho hedged request, cho gateway, cho chặng cuối, giản đơn');
    const inText = page('Chỉ retry ở một tầng', 'Retry-After cho biết thời gian chờ trước attempt sau');
    const inTitle = page('Thời gian chờ của một lời gọi', 'mỗi lời gọi cần một thời gian chờ');
    for (const query of ['thoi gian cho', 'thời gian chờ']) {
      expect(rankResults(query, [common, inText, inTitle]).map((p) => p.title)).toEqual([inTitle.title, inText.title, common.title]);
    }
  });

  it('matches the marks a query was typed with ("chờ" is not "cho"), and any marks for a query typed without', () => {
    const forIt = page('Budget', 'còn thời gian cho một attempt nữa');
    const waiting = page('Retry', 'thời gian chờ trước attempt sau');
    expect(rankResults('thời gian chờ', [forIt, waiting])).toEqual([waiting, forIt]);
    expect(rankResults('thoi gian cho', [forIt, waiting])).toEqual([forIt, waiting]);
  });

  it('keeps Pagefind order for a one-word query', () => {
    const a = page('A', 'timeout timeout');
    const b = page('B', 'timeout');
    expect(rankResults('timeout', [b, a])).toEqual([b, a]);
  });

  it('drops a page matched only through one letter of an unknown word, not a one-letter word the learner typed', () => {
    const x = page('Choosing a timeout', 'cuts 100 - X percent', 'cuts 100 - <mark>X</mark> percent');
    expect(markedWords(x.excerpt)).toEqual(['x']);
    expect(onlyOneLetterMatches('xyzzyplugh', x)).toBe(true);
    expect(rankResults('xyzzyplugh', [x])).toEqual([]);
    expect(rankResults('x percent', [x])).toEqual([x]);
  });

  it('reads a one-letter match with the punctuation Pagefind keeps on it as one letter', () => {
    const formula = page('Pushback', 'costs 0.05 × (10 − x), and x', 'costs 0.05 × (10 − <mark>x),</mark> and <mark>x</mark>');
    expect(markedWords(formula.excerpt)).toEqual(['x', 'x']);
    expect(rankResults('xyzzyplugh', [formula])).toEqual([]);
  });
});
