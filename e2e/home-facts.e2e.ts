/**
 * Issue 28, item 8 and item 9's "no total time": every count, list and time on the home page and in
 * the footer is the course's own (content/modules.json, the lessons' minutes, the exercises'
 * estimates), in both languages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countWord, roughHours } from '../src/course/course-facts.ts';
import { skipBrowser, useBrowser } from './fixtures.ts';

interface ModuleJson {
  id: string;
  learn: Record<string, string>;
  topic: Record<string, string>;
}
const modules = JSON.parse(readFileSync('content/modules.json', 'utf8')) as ModuleJson[];
const exercises = readdirSync('exercises')
  .filter((id) => !id.startsWith('_'))
  .flatMap((id) => {
    try {
      return [JSON.parse(readFileSync(`exercises/${id}/exercise.json`, 'utf8')) as { id: string; module: string; estimateMinutes: number }];
    } catch {
      return [];
    }
  });
const lessonMinutes = (lang: string) =>
  modules
    .flatMap((m) => readdirSync(`content/lessons/${lang}/${m.id}`).map((f) => readFileSync(`content/lessons/${lang}/${m.id}/${f}`, 'utf8')))
    .reduce((sum, text) => sum + Number(/^minutes:\s*(\d+)/m.exec(text)![1]), 0);

describe.skipIf(skipBrowser())('the home page counts the course as it is', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('(%s) modules, what you will learn, the footer, the total time and each exercise’s estimate', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/`);
    const lead = (await page.locator('[data-course-lead]').textContent())!;
    expect(lead.startsWith(`${countWord(lang, modules.length)} module`), lead).toBe(true);

    // One "what you will learn" line per module, in order.
    expect(await page.locator('.learn li').allTextContents()).toEqual(modules.map((m) => m.learn[lang]));
    expect(await page.locator('.module-card').count()).toBe(modules.length);

    // The footer names every module's topic and their number.
    const about = (await page.locator('[data-course-about]').textContent())!;
    expect(about).toContain(String(modules.length));
    for (const m of modules) expect(about, m.id).toContain(m.topic[lang]!);

    // The total: the lessons' minutes and the exercises' estimates.
    const inCourse = exercises.filter((e) => modules.some((m) => m.id === e.module));
    const total = lessonMinutes(lang) + inCourse.reduce((s, e) => s + e.estimateMinutes, 0);
    const time = (await page.locator('[data-course-time]').textContent())!;
    console.log(`${lang}: ${lead.split('.')[0]} · ${time.trim()}`);
    expect(time).toContain(`${lang === 'en' ? 'About' : 'khoảng'} ${roughHours(total, lang)} `);
    expect(time).toContain(String(inCourse.length));

    // Every exercise is listed on its module's card with its estimate.
    for (const e of inCourse) {
      const item = page.locator(`.module-card[data-module="${e.module}"] [data-exercise="${e.id}"]`);
      expect(await item.locator('[data-estimate]').getAttribute('data-estimate'), e.id).toBe(String(e.estimateMinutes));
      expect(await item.locator('[data-estimate]').textContent()).toContain(String(e.estimateMinutes));
      expect(await item.isVisible(), e.id).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('an exercise says how long it takes where it is embedded', async () => {
    const { page } = await browser.open('/vi/deadlines/fan-out/');
    const estimate = exercises.find((e) => e.id === 'fan-out')!.estimateMinutes;
    expect(await page.locator('.embed-exercise[data-exercise="fan-out"] .embed-estimate').textContent()).toBe(` · khoảng ${estimate} phút`);
  });
});
