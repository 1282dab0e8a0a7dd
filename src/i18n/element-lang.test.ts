import { describe, expect, it } from 'vitest';
import { elementLang, elementStrings } from './element-lang.ts';

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

describe('elementStrings', () => {
  const withStrings = (strings?: string) => ({ dataset: strings === undefined ? {} : { strings } }) as unknown as HTMLElement;

  it('reads the strings the component wrote, in its language', () => {
    expect(elementStrings(withStrings('{"ws.run":"Chạy","ws.reset":"Đặt lại"}'))).toEqual({ 'ws.run': 'Chạy', 'ws.reset': 'Đặt lại' });
  });

  it('is an empty table on an element rendered without them, and throws on a broken one', () => {
    expect(elementStrings(withStrings())).toEqual({});
    expect(() => elementStrings(withStrings('{"ws.run":'))).toThrow(SyntaxError);
  });
});
