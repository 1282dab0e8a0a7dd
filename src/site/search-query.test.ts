import { describe, expect, it } from 'vitest';
import { searchQueries, searchVariants, stripDiacritics } from './search-query.ts';

describe('searchVariants', () => {
  it('runs a query as typed, without its marks, and with each word-initial d as đ', () => {
    expect(searchVariants(' lời gọi đang chờ ')).toEqual(['lời gọi đang chờ', 'loi goi dang cho', 'loi goi đang cho']);
    expect(searchVariants('duong dan')).toEqual(['duong dan', 'đuong đan']);
  });

  it('runs a query with nothing to vary once', () => {
    expect(searchVariants('timeout')).toEqual(['timeout']);
    expect(searchVariants('deadline')).toEqual(['deadline', 'đeadline']);
  });

  it('strips marks and đ', () => {
    expect(stripDiacritics('Đường đi thời gian')).toBe('Duong di thoi gian');
  });
});

describe('searchQueries', () => {
  it('asks for the phrase first, in each variant, then for the words', () => {
    expect(searchQueries('lời gọi đang chờ')).toEqual([
      '"lời gọi đang chờ"',
      '"loi goi dang cho"',
      '"loi goi đang cho"',
      'lời gọi đang chờ',
      'loi goi dang cho',
      'loi goi đang cho',
    ]);
  });

  it('asks for one word once, as it is', () => {
    expect(searchQueries(' jitter ')).toEqual(['jitter']);
  });
});
