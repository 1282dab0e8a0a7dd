import { describe, expect, it } from 'vitest';
import { elementLang } from './element-lang.ts';

/** Just what elementLang reads of an element: no DOM in these tests. */
const element = (lang?: string) => ({ localName: 'course-lab', dataset: lang === undefined ? {} : { lang } }) as unknown as HTMLElement;

describe('elementLang', () => {
  it('reads the language the element was rendered in', () => {
    expect([elementLang(element('vi')), elementLang(element('en'))]).toEqual(['vi', 'en']);
  });

  it('fails by element instead of guessing a language', () => {
    expect(() => elementLang(element())).toThrow('<course-lab> has data-lang undefined, not vi or en');
    expect(() => elementLang(element('fr'))).toThrow('"fr"');
  });
});
