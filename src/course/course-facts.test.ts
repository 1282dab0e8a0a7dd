import { describe, expect, it } from 'vitest';
import { countWord, courseFacts, hoursAndMinutes, listOf, roughHours } from './course-facts.ts';
import type { Outline } from './outline.ts';

const lesson = (module: string, minutes: number) => ({ module, minutes }) as Outline['lessons'][number];
const outline = {
  lang: 'en',
  modules: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
  lessons: [lesson('a', 10), lesson('a', 12), lesson('b', 8), lesson('c', 15)],
} as unknown as Outline;

describe('courseFacts', () => {
  it('counts modules, lessons and exercises, and adds the lessons minutes to the exercises estimates', () => {
    const facts = courseFacts(outline, [
      { id: 'x', module: 'a', estimateMinutes: 30 },
      { id: 'y', module: 'c', estimateMinutes: 45 },
      { id: 'z', module: 'c', estimateMinutes: 20 },
      { id: 'gone', module: 'not-in-the-outline', estimateMinutes: 99 },
    ]);
    expect(facts).toMatchObject({ modules: 3, lessons: 4, exercises: 3, lessonMinutes: 45, exerciseMinutes: 95, totalMinutes: 140 });
    expect(facts.exercisesOf('c').map((e) => e.id)).toEqual(['y', 'z']);
    expect(facts.exercisesOf('b')).toEqual([]);
  });
});

describe('the words the home page says them with', () => {
  it('spells a count as the first word of a sentence', () => {
    expect(countWord('en', 9)).toBe('Nine');
    expect(countWord('vi', 9)).toBe('Chín');
    expect(countWord('vi', 11)).toBe('Mười một');
    expect(countWord('en', 31)).toBe('31');
  });

  it('lists in the language’s own way', () => {
    expect(listOf('en', ['timeouts', 'retries', 'queues'])).toBe('timeouts, retries, and queues');
    expect(listOf('vi', ['timeout', 'retry', 'hàng đợi'])).toBe('timeout, retry và hàng đợi');
  });

  it('rounds hours to the half, and splits minutes into hours and minutes', () => {
    expect(roughHours(852, 'en')).toBe('14');
    expect(roughHours(400, 'en')).toBe('6.5');
    expect(roughHours(400, 'vi')).toBe('6,5');
    const forms = { hm: '{h} h {m} min', h: '{h} h', m: '{m} min' };
    expect(hoursAndMinutes(387, forms)).toBe('6 h 27 min');
    expect(hoursAndMinutes(120, forms)).toBe('2 h');
    expect(hoursAndMinutes(45, forms)).toBe('45 min');
  });
});
