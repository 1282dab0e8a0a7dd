/** A parameterized test's Vietnamese name keeps the values vitest filled into the English one. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localTestName, placeholders } from './test-names.ts';

const names = {
  'D1 reads a plain decimal integer': 'D1 đọc một số nguyên thập phân thông thường',
  'D1 treats x-deadline-ms: %s as absent': 'D1 coi x-deadline-ms: %s như không có',
  'D10 with remaining() = %s and options %j: %s': 'D10 với remaining() = %s và options %j: %s',
  'D12 resolves for status %i': 'D12 resolve khi status là %i',
  'Q1 $name takes %% of $limit': 'Q1 $name chiếm %% của $limit',
  '="1e3" (exponent)': '"1e3" (dạng luỹ thừa)',
  '=reject': 'reject mà không gọi fetch',
};

describe('localTestName', () => {
  it('names a fixed test by its translation', () => {
    expect(localTestName('D1 reads a plain decimal integer', names)).toBe('D1 đọc một số nguyên thập phân thông thường');
  });

  it('fills the values of a parameterized test into its Vietnamese template, translating a listed value', () => {
    expect(localTestName('D1 treats x-deadline-ms: "1e3" (exponent) as absent', names)).toBe('D1 coi x-deadline-ms: "1e3" (dạng luỹ thừa) như không có');
    expect(localTestName('D1 treats x-deadline-ms: "abc" as absent', names)).toBe('D1 coi x-deadline-ms: "abc" như không có');
    expect(localTestName('D12 resolves for status 503', names)).toBe('D12 resolve khi status là 503');
  });

  it('keeps several values apart, JSON ones included', () => {
    expect(localTestName('D10 with remaining() = 215.5 and options {"reserveMs":200,"minAttemptMs":10}: 15', names)).toBe(
      'D10 với remaining() = 215.5 và options {"reserveMs":200,"minAttemptMs":10}: 15',
    );
    expect(localTestName('D10 with remaining() = 69.99 and options {}: reject', names)).toBe(
      'D10 với remaining() = 69.99 và options {}: reject mà không gọi fetch',
    );
  });

  it('reads $name placeholders of object cases and a literal %%', () => {
    expect(localTestName('Q1 search takes % of 40', names)).toBe('Q1 search chiếm % của 40');
  });

  it('gives nothing for a name the list does not hold', () => {
    expect(localTestName('D1 something else', names)).toBeUndefined();
    expect(localTestName('D12 resolves for status', names)).toBeUndefined();
  });

  it('lists the placeholders in order', () => {
    expect(placeholders('F2 with %s and %j: required %i ms, 100%% $a.b')).toEqual(['%s', '%j', '%i', '$a.b']);
  });

  it('names every case of deadline-middleware D1 with its input, as vitest names them', () => {
    const vi = JSON.parse(readFileSync('exercises/deadline-middleware/test-names.vi.json', 'utf8')) as Record<string, string>;
    const name = localTestName('D1 treats x-deadline-ms: "1e3" (exponent) as absent', vi);
    expect(name).toMatch(/^D1 .*"1e3"/);
    expect(name).not.toMatch(/exponent/);
  });
});
