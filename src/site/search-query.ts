/** Vietnamese written without its marks ("thoi gian cho") should still find "thời gian chờ". */
export function stripDiacritics(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D');
}

/**
 * The queries to run for what the learner typed: as typed, without diacritics when that differs,
 * and with each word's first "d" as "đ". Pagefind (1.6) ignores combining marks, so "thoi gian"
 * finds "thời gian" by itself; but "đ" is a letter of its own, not "d" with a mark, so "dang"
 * would never find "đang" (a Vietnamese syllable can have "đ" only as its first letter).
 */
export function searchVariants(query: string): string[] {
  const trimmed = query.trim();
  const plain = stripDiacritics(trimmed);
  const withDd = plain.replace(/(^|[^\p{L}\p{N}])d/giu, (_, before: string) => `${before}đ`);
  return [...new Set([trimmed, plain, withDd])];
}

/**
 * Everything to ask Pagefind, in order: for a query of several words each variant as a quoted
 * phrase first (Pagefind matches a quoted phrase word for word, marks ignored), then each variant
 * as words. Pagefind alone ranks pages with many "chọn", "chỗ" and "cho" above the one page with
 * "lời gọi đang chờ" (its words also match as prefixes, marks ignored); the phrase's pages found
 * first are the ones re-ranked (search-rank.ts), so they cannot fall past the first twenty.
 */
export function searchQueries(query: string): string[] {
  const variants = searchVariants(query).map((v) => v.replace(/"/g, ''));
  const phrases = /\s/.test(query.trim()) ? variants.map((v) => `"${v}"`) : [];
  return [...new Set([...phrases, ...searchVariants(query)])];
}
