/** Vietnamese written without its marks ("thoi gian cho") should still find "thời gian chờ". */
export function stripDiacritics(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D');
}

/** The queries to run for what the learner typed: as typed, and without diacritics when that differs. */
export function searchVariants(query: string): string[] {
  const trimmed = query.trim();
  const plain = stripDiacritics(trimmed);
  return plain === trimmed ? [trimmed] : [trimmed, plain];
}
