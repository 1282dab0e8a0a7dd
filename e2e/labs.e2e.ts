/**
 * The simulation labs in real Chromium: they draw, they react to sliders, selects and typed values,
 * a shared link brings back the same parameters and figures, Reset restores the defaults, everything
 * works from the keyboard, in both languages, in light and dark, on a phone, and without JavaScript.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';

const STORM = 'retry-budgets/retry-storms';
const HEDGING = 'hedging/tail-at-scale';
const CHAIN = 'deadlines/propagating-deadlines';
const OVERLOAD = 'overload/breakers-and-limits';
const RECONNECT = 'beyond-one-request/long-lived-connections';
const LAB_PAGES = [STORM, HEDGING, CHAIN, 'backoff-jitter/jitter', 'when-to-retry/one-layer', 'timeouts/choosing-a-timeout', OVERLOAD, RECONNECT];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const text = {
  en: { none: '— (none)', recovered: 'Recovered after', copied: 'Link copied', reset: 'Reset', copy: 'Copy link' },
  vi: { none: '— (không có)', recovered: 'Hồi phục sau', copied: 'Đã sao chép link', reset: 'Đặt lại', copy: 'Sao chép link' },
} as const;

/** Bring the lab into view (which loads its script) and wait until it has drawn `renders` times. */
async function activate(page: Page, sim: string, renders = 1) {
  const lab = page.locator(`course-lab[data-sim="${sim}"]`);
  await lab.scrollIntoViewIfNeeded();
  await poll(() => lab.getAttribute('data-renders').then(Number)).toBeGreaterThanOrEqual(renders);
  return lab;
}

/** The machine running the tests may be busy: give the worker time. */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
/** Wait until the lab shows the results of its latest parameters. */
const settled = (page: Page, sim: string) => poll(() => page.locator(`course-lab[data-sim="${sim}"]`).getAttribute('data-state')).toBe('ready');
const renders = async (page: Page, sim: string) => Number(await page.locator(`course-lab[data-sim="${sim}"]`).getAttribute('data-renders'));
const figure = (page: Page, key: string) => page.locator(`[data-figure="${key}"] dd`).innerText();
const figures = (page: Page) => page.locator('[data-figures]').innerText();
/**
 * The exercise embeds on some of these pages (another feature) ask for /__runner/session, a 404 on a static
 * preview, and boot a WebContainer from stackblitz.com, unreachable here. Labs fetch nothing of the kind.
 */
const realErrors = (errors: string[]) => errors.filter((e) => !/status of 404/.test(e) && !e.includes('/__runner/') && !e.includes('stackblitz.com'));

describe.skipIf(skipBrowser())('simulation labs', () => {
  const browser = useBrowser();

  it.each(['en', 'vi'] as const)('retry-storm draws its charts, and highlighting shows the budget recovers where full jitter does not (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    expect(await lab.locator('[data-chart="load"] [data-plot] canvas').count()).toBe(1);
    expect(await lab.locator('[data-chart="goodput"] [data-plot] canvas').count()).toBe(1);
    expect(await lab.locator('[data-chart="load"] [data-plot] canvas').evaluate((c) => (c as HTMLCanvasElement).width)).toBeGreaterThan(200);
    // Axis titles (drawn on the canvas from the same text) and the data table speak the page's language.
    expect(await lab.locator('[data-chart="load"] [data-chart-table] thead th').first().textContent()).toBe(
      lang === 'en' ? 'Time since the outage started (s)' : 'Thời gian từ lúc bắt đầu outage (s)',
    );

    await lab.locator('[data-focus-select]').selectOption('full-jitter-x3');
    await poll(() => figure(page, 'row.recoveredAfterMs')).toBe(text[lang].none);
    expect(await figure(page, 'row.peakLoadAfterRecovery')).toMatch(/^4[.,]\d+x$/);
    await lab.locator('[data-focus-select]').selectOption('full-jitter-budget-10');
    await poll(() => figure(page, 'row.recoveredAfterMs')).toBe('0 ms');
    expect(await lab.locator('.lab-row-focus th').innerText()).toBe(lang === 'en' ? 'Full jitter + 10% retry budget' : 'Full jitter + retry budget 10%');
    expect(await lab.locator('.lab-legend-item:not(.lab-dim)').first().getAttribute('data-series')).toBe('full-jitter-budget-10');

    // A slider: halve the new requests, and the normal load figure follows.
    const before = await renders(page, 'retry-storm');
    await lab.locator('[data-input="newPerTick"]').fill('40');
    await poll(() => figure(page, 'normalLoad')).toBe(lang === 'en' ? '0.4x' : '0,4x');
    expect(await renders(page, 'retry-storm')).toBeGreaterThan(before);
    expect(await lab.locator('[data-cli]').innerText()).toBe('npm run sim -- retry-storm --seed 1 --set newPerTick=40');
    expect(realErrors(errors), errors.join('\n')).toEqual([]);
  });

  it.each(['en', 'vi'] as const)(
    'overload-recovery draws goodput and load; shedding recovers where retries do not, and a short throttle window recovers too (%s)',
    async (lang) => {
      const { page, errors } = await browser.open(`/${lang}/${OVERLOAD}/`);
      const lab = await activate(page, 'overload-recovery');
      expect(await lab.locator('[data-chart="goodput"] [data-plot] canvas').count()).toBe(1);
      expect(await lab.locator('[data-chart="offered"] [data-plot] canvas').count()).toBe(1);
      await lab.locator('[data-focus-select]').selectOption('retries');
      await poll(() => figure(page, 'row.recoveredAfterMs')).toBe(text[lang].none);
      await lab.locator('[data-focus-select]').selectOption('retries-shed');
      await poll(() => figure(page, 'row.recoveredAfterMs')).toBe('200 ms');
      await lab.locator('[data-focus-select]').selectOption('retries-throttle');
      await poll(() => figure(page, 'row.recoveredAfterMs')).toBe(text[lang].none);
      // The book's two-minute window keeps refusing long after the backend is fine; ten seconds does not.
      await lab.locator('[data-input="throttleWindowS"]').fill('10');
      await poll(() => lab.locator('[data-cli]').innerText()).toBe('npm run sim -- overload-recovery --seed 1 --set throttleWindowS=10');
      await settled(page, 'overload-recovery');
      await poll(() => figure(page, 'row.recoveredAfterMs')).not.toBe(text[lang].none);
      expect(realErrors(errors), errors.join('\n')).toEqual([]);
    },
  );

  it.each(['en', 'vi'] as const)(
    'reconnect-storm draws attempts and connected clients; draining refuses no handshake, and reconnecting at once brings the first wave back (%s)',
    async (lang) => {
      const { page, errors } = await browser.open(`/${lang}/${RECONNECT}/`);
      const lab = await activate(page, 'reconnect-storm');
      expect(await lab.locator('[data-chart="attempts"] [data-plot] canvas').count()).toBe(1);
      expect(await lab.locator('[data-chart="connected"] [data-plot] canvas').count()).toBe(1);
      await lab.locator('[data-focus-select]').selectOption('drain-no-backoff');
      await poll(() => figure(page, 'row.failedHandshakes')).toBe('0');
      expect(await figure(page, 'row.peakLoad')).toBe(lang === 'en' ? '0.4x' : '0,4x');
      await lab.locator('[data-focus-select]').selectOption('full-jitter');
      await poll(() => figure(page, 'row.peakAttemptsPerS')).toBe(lang === 'en' ? '1,460' : '1.460');
      // Jitter spreads only the attempts after the first: reconnecting at once, its peak is the no-backoff one.
      await lab.locator('[data-input="reconnectAtOnce"]').check();
      await poll(() => lab.locator('[data-cli]').innerText()).toBe('npm run sim -- reconnect-storm --seed 1 --set reconnectAtOnce=true');
      await settled(page, 'reconnect-storm');
      await poll(() => figure(page, 'row.peakAttemptsPerS')).toBe(lang === 'en' ? '10,000' : '10.000');
      expect(realErrors(errors), errors.join('\n')).toEqual([]);
    },
  );

  it.each(['en', 'vi'] as const)('hedging: a different hedge delay changes p99, and a bad value is explained without losing the results (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/${HEDGING}/`);
    const lab = await activate(page, 'hedging');
    await lab.locator('[data-focus-select]').selectOption('hedged');
    await poll(() => figure(page, 'row.p99')).toBe(lang === 'en' ? '96.8 ms' : '96,8 ms');
    await lab.locator('[data-input="hedgeAfterPercentile"]').fill('50');
    await poll(() => figure(page, 'hedgeDelayMs')).toBe('40 ms');
    expect(await figure(page, 'row.p99')).toBe(lang === 'en' ? '78.8 ms' : '78,8 ms');
    expect(await figure(page, 'row.extraRequestsPct')).toBe(lang === 'en' ? '51.1%' : '51,1%');

    // Out of range: the field says why, the figures stay those of the last valid run.
    const input = lab.locator('[data-input="hedgeAfterPercentile"]');
    await input.fill('150');
    await poll(() => input.getAttribute('aria-invalid')).toBe('true');
    expect(await lab.locator('[data-param="hedgeAfterPercentile"] [data-error]').innerText()).toContain('150');
    expect(await lab.locator('[data-form-error]').innerText()).not.toBe('');
    expect(await figure(page, 'hedgeDelayMs')).toBe('40 ms');
    expect(await input.inputValue()).toBe('150');
    await input.fill('95');
    await poll(() => figure(page, 'hedgeDelayMs')).toBe('58 ms');
    expect(await input.getAttribute('aria-invalid')).toBeNull();
    expect(realErrors(errors), errors.join('\n')).toEqual([]);
  });

  it.each(['en', 'vi'] as const)(
    'a copied link opens a fresh page with the same parameters and figures, and Reset restores the defaults (%s)',
    async (lang) => {
      const context = await browser.context({ permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await context.newPage();
      await page.goto(`/${lang}/${HEDGING}/`);
      const lab = await activate(page, 'hedging');
      const defaults = await figures(page);
      await lab.locator('[data-input="hedgeAfterPercentile"]').fill('80');
      await lab.locator('[data-input="adaptiveDelay"]').check();
      await lab.locator('[data-input="utilisation"]').fill('0.3');
      await lab.locator('[data-seed]').fill('7');
      await lab.locator('[data-focus-select]').selectOption('hedged');
      await poll(() => lab.locator('[data-cli]').innerText()).toBe(
        'npm run sim -- hedging --seed 7 --set hedgeAfterPercentile=80 --set utilisation=0.3 --set adaptiveDelay=true',
      );
      await poll(() => figure(page, 'hedgeDelayMs')).not.toBe('58 ms');
      await settled(page, 'hedging');
      const changed = await figures(page);
      const table = await lab.locator('[data-results-table]').innerText();

      await lab.getByRole('button', { name: text[lang].copy }).click();
      await poll(() => lab.locator('[data-status]').innerText()).toContain(text[lang].copied);
      const link = await lab.locator('[data-link]').inputValue();
      expect(link).toContain('#lab-hedging?');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      const fresh = await (await browser.context()).newPage();
      const errors: string[] = [];
      fresh.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      fresh.on('pageerror', (e) => errors.push(e.message));
      await fresh.goto(link);
      const freshLab = fresh.locator('course-lab[data-sim="hedging"]');
      await poll(() => freshLab.getAttribute('data-renders').then(Number)).toBeGreaterThanOrEqual(1);
      await poll(() => figures(fresh)).toBe(changed);
      expect(await freshLab.locator('[data-results-table]').innerText()).toBe(table);
      expect(await freshLab.locator('[data-input="hedgeAfterPercentile"]').inputValue()).toBe('80');
      expect(await freshLab.locator('[data-input="adaptiveDelay"]').isChecked()).toBe(true);
      expect(await freshLab.locator('[data-seed]').inputValue()).toBe('7');
      expect(await freshLab.locator('[data-focus-select]').inputValue()).toBe('hedged');
      // The link scrolled the lab into view.
      expect(await freshLab.evaluate((el) => el.getBoundingClientRect().top < innerHeight)).toBe(true);
      expect(realErrors(errors), errors.join('\n')).toEqual([]);

      await lab.getByRole('button', { name: text[lang].reset }).click();
      await poll(() => figures(page)).toBe(defaults);
      expect(await lab.locator('[data-input="hedgeAfterPercentile"]').inputValue()).toBe('95');
      expect(await lab.locator('[data-input="adaptiveDelay"]').isChecked()).toBe(false);
      expect(await lab.locator('[data-seed]').inputValue()).toBe('1');
      expect(await lab.locator('[data-focus-select]').inputValue()).toBe('');
      expect(await lab.locator('[data-cli]').innerText()).toBe('npm run sim -- hedging --seed 1');
    },
  );

  it('works from the keyboard alone: select, slider, number box and buttons', async () => {
    const { page, errors } = await browser.open(`/en/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    await lab.locator('[data-focus-select]').focus();
    await page.keyboard.press('ArrowDown'); // the first policy: none
    await poll(() => figure(page, 'row.recoveredAfterMs')).toBe('0 ms');
    // A logarithmic slider sits between its − and + buttons.
    await page.keyboard.press('Tab'); // capacity's −
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.nudge)).toBe('capacityPerTick');
    await page.keyboard.press('Tab'); // capacity slider
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.slider)).toBe('capacityPerTick');
    await page.keyboard.press('Tab'); // its +
    await page.keyboard.press('Tab'); // its number box
    await page.keyboard.press('Tab'); // new requests' −
    await page.keyboard.press('Tab'); // new requests slider
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.slider)).toBe('newPerTick');
    const start = await lab.locator('[data-input="newPerTick"]').inputValue();
    await page.keyboard.press('Home');
    await poll(() => lab.locator('[data-input="newPerTick"]').inputValue()).toBe('1');
    expect(await lab.locator('[data-slider="newPerTick"]').getAttribute('aria-valuetext')).toBe('1');
    await poll(() => figure(page, 'normalLoad')).toBe('0.01x');
    await page.keyboard.press('PageUp');
    await poll(() => lab.locator('[data-input="newPerTick"]').inputValue()).not.toBe('1');
    const paged = Number(await lab.locator('[data-input="newPerTick"]').inputValue());
    await page.keyboard.press('Tab'); // its +
    await page.keyboard.press('Enter'); // one round value up, from the keyboard too
    await poll(() => lab.locator('[data-input="newPerTick"]').inputValue().then(Number)).toBeGreaterThan(paged);
    await page.keyboard.press('Tab'); // number box: type an exact value
    await page.keyboard.press('Control+A');
    await page.keyboard.type('120');
    await poll(() => figure(page, 'normalLoad')).toBe('1.2x');
    // On to Reset with Tab, press it with Enter.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.hasAttribute('data-reset'))) break;
    }
    await page.keyboard.press('Enter');
    await poll(() => lab.locator('[data-input="newPerTick"]').inputValue()).toBe(start);
    await poll(() => figure(page, 'normalLoad')).toBe('0.8x');
    await page.keyboard.press('Tab'); // Copy link, with Space
    await page.keyboard.press(' ');
    await poll(() => lab.locator('[data-link]').inputValue()).toContain('#lab-retry-storm?seed=1');
    expect(realErrors(errors), errors.join('\n')).toEqual([]);
  });

  it.each(['en', 'vi'] as const)('deadline-chain draws its timeline as SVG with a legend and a table of every call, and redraws it (%s)', async (lang) => {
    const { page, errors } = await browser.open(`/${lang}/${CHAIN}/`);
    const lab = await activate(page, 'deadline-chain');
    const bad = lab.locator('[data-chart="timeline-bad"]');
    const bars = () => bad.locator('svg rect.lab-bar title').count();
    expect(await bars()).toBe(28); // 1 + 3 + 12 calls, 12 pieces of work at C
    expect(await bad.locator('[data-chart-table] tbody tr').count()).toBe(28);
    expect(await bad.locator('svg').getAttribute('role')).toBe('img');
    expect(await bad.locator('svg').innerHTML()).toContain(lang === 'en' ? 'timed out' : 'hết timeout');
    await lab.locator('[data-input="bcRetries"]').fill('0');
    await poll(bars).toBe(1 + 3 + 3 + 3);
    expect(await bad.locator('[data-chart-table] tbody tr').count()).toBe(10);
    await poll(() => figure(page, 'wastedWorkRatio')).not.toBe(lang === 'en' ? '92.3x' : '92,3x');
    expect(realErrors(errors), errors.join('\n')).toEqual([]);
  });

  it('loads the chart code and the worker only when the lab comes near', async () => {
    const context = await browser.context({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => scripts.push(r.url()));
    await page.goto(`/en/${STORM}/`, { waitUntil: 'networkidle' });
    const lab = page.locator('course-lab');
    expect(await lab.evaluate((el) => el.getBoundingClientRect().top > innerHeight + 400)).toBe(true);
    expect(scripts.filter((u) => /lab-controller|sim-worker|uPlot/i.test(u))).toEqual([]);
    expect(await lab.getAttribute('data-renders')).toBeNull();
    await activate(page, 'retry-storm');
    expect(scripts.some((u) => u.includes('lab-controller'))).toBe(true);
    expect(scripts.some((u) => u.includes('sim-worker'))).toBe(true);
  });

  // Issue 28, item 6: on a phone the sliders came first and the charts about 1,000 px below them.
  it('on a phone the key figures stay in view under the header beside the slider being moved, and change with it', async () => {
    const page = await (await browser.context(PHONE)).newPage();
    await page.goto(`/en/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    // The last slider of the form: the farthest from the results.
    const slider = lab.locator('[data-slider]').last();
    await slider.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(100);
    const strip = async () => (await lab.locator('[data-figures-box]').boundingBox())!;
    const header = (await page.locator('.site-header').boundingBox())!;
    const box = await strip();
    const thumb = (await slider.boundingBox())!;
    expect(box.y, 'under the header').toBeGreaterThanOrEqual(header.y + header.height - 1);
    expect(box.y + box.height, 'above the slider, not over it').toBeLessThanOrEqual(thumb.y);
    expect(box.height, 'compact').toBeLessThanOrEqual(130);
    expect(box.width).toBeLessThanOrEqual(390);
    // The learner types a value beside that slider: the strip in view shows its effect.
    await lab.locator('[data-input="newPerTick"]').fill('40');
    await poll(() => figure(page, 'normalLoad')).toBe('0.4x');
    const after = await strip();
    expect(after.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
    expect(after.y + after.height).toBeLessThanOrEqual(844);
    expect(await lab.locator('[data-figures-box]').innerText()).toContain('0.4x');
  });

  it('a logarithmic slider has − and + buttons that move it to the next round value, not across the range', async () => {
    const page = await (await browser.context(PHONE)).newPage();
    await page.goto(`/en/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    const value = () => lab.locator('[data-input="capacityPerTick"]').inputValue();
    expect(await value()).toBe('100');
    const plus = lab.getByRole('button', { name: 'Increase Capacity (requests per 100 ms tick)' });
    const minus = lab.getByRole('button', { name: 'Decrease Capacity (requests per 100 ms tick)' });
    await plus.tap();
    await poll(value).toBe('120');
    await minus.tap();
    await minus.tap();
    await poll(value).toBe('80');
    await poll(() => lab.locator('[data-cli]').innerText()).toBe('npm run sim -- retry-storm --seed 1 --set capacityPerTick=80');
    // The range input follows, and says the value.
    expect(await lab.locator('[data-slider="capacityPerTick"]').getAttribute('aria-valuetext')).toBe('80');
    const size = (await plus.boundingBox())!;
    expect(Math.min(size.width, size.height), 'a target a finger can hit').toBeGreaterThanOrEqual(24);
  });

  it.each([
    ['desktop', { viewport: { width: 1280, height: 800 } }],
    ['phone', PHONE],
  ] as const)('retry-storm (%s): the outage labels sit above the plot, off the lines, and the y axis reaches the 36x peak', async (_, options) => {
    const page = await (await browser.context(options)).newPage();
    await page.goto(`/en/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    const plot = lab.locator('[data-chart="load"] [data-plot]');
    await poll(() => plot.getAttribute('data-y-range')).not.toBeNull();
    const area = JSON.parse((await plot.getAttribute('data-plot-box'))!) as { y: number };
    const labels = JSON.parse((await plot.getAttribute('data-marker-labels'))!) as { y: number; height: number }[];
    expect(labels.length).toBe(2);
    for (const l of labels) expect(l.y + l.height, 'a label above the plot area').toBeLessThanOrEqual(area.y);
    // The peak the data table shows is inside the y axis, or marked where it leaves the chart.
    const cells = await lab.locator('[data-chart="load"] [data-chart-table] td').evaluateAll((tds) => tds.map((td) => td.textContent ?? ''));
    const peak = Math.max(...cells.filter(Boolean).map((c) => Number(c.replace(/,/g, ''))));
    expect(peak).toBe(36);
    const [, top] = JSON.parse((await plot.getAttribute('data-y-range'))!) as [number, number];
    expect(top).toBeGreaterThanOrEqual(peak);
    expect(JSON.parse((await plot.getAttribute('data-clipped'))!)).toEqual([]);
  });

  it('every lab on a phone: the figures strip beside the first slider, legends with a line pattern per series, labels off the plot', {
    timeout: 240_000,
  }, async () => {
    const context = await browser.context(PHONE);
    const problems: string[] = [];
    for (const lesson of LAB_PAGES) {
      const page = await context.newPage();
      await page.goto(`/en/${lesson}/`);
      const sim = (await page.locator('course-lab').getAttribute('data-sim'))!;
      const lab = await activate(page, sim);
      const slider = lab.locator('[data-slider], [data-form] select').first();
      await slider.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(100);
      const strip = (await lab.locator('[data-figures-box]').boundingBox())!;
      const control = (await slider.boundingBox())!;
      if (!(strip.y >= 0 && strip.y + strip.height <= control.y)) problems.push(`${sim}: the figures strip is not above the control on screen`);
      for (const legend of await lab.locator('[data-legend]').all()) {
        const dashes = await legend
          .locator('.lab-swatch')
          .evaluateAll((s) => s.map((x) => x.getAttribute('data-dash') ?? (x.querySelector('rect') ? 'bar' : 'none')));
        const lines = dashes.filter((d) => d !== 'bar');
        if (lines.includes('none') || new Set(lines).size !== lines.length) problems.push(`${sim}: legend patterns ${dashes.join(' | ')}`);
      }
      for (const plot of await lab.locator('[data-plot]').all()) {
        await poll(() => plot.getAttribute('data-plot-box')).not.toBeNull();
        const area = JSON.parse((await plot.getAttribute('data-plot-box'))!) as { y: number };
        const labels = JSON.parse((await plot.getAttribute('data-marker-labels')) ?? '[]') as { y: number; height: number }[];
        if (labels.some((l) => l.y + l.height > area.y)) problems.push(`${sim}: a marker label inside the plot`);
      }
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it('fits a phone screen and follows the dark theme', async () => {
    const context = await browser.context({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`/vi/${STORM}/`);
    const lab = await activate(page, 'retry-storm');
    const canvas = lab.locator('[data-chart="load"] canvas');
    const box = await canvas.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(360);
    expect(box!.width).toBeGreaterThan(240);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The axes are drawn in the dark theme's light foreground: the canvas has near-white pixels.
    const light = await canvas.evaluate((c) => {
      const { data } = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 200 && data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) n++;
      return n;
    });
    expect(light).toBeGreaterThan(50);
  });

  it('shows the default figures, the table, the timeline and the chart data without JavaScript', async () => {
    const context = await browser.context({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/en/${CHAIN}/`);
    expect(await page.locator('[data-figure="wastedWorkRatio"] dd').innerText()).toBe('92.3x');
    expect(await page.locator('[data-chart="timeline-good"] svg rect.lab-bar').count()).toBeGreaterThan(3);
    await page.goto(`/en/${STORM}/`);
    expect(await page.locator('[data-results-table] tbody tr').count()).toBe(6);
    await page.locator('[data-chart="load"] details summary').click();
    expect(await page.locator('[data-chart="load"] [data-chart-table] tbody tr').count()).toBeGreaterThan(30);
    expect(await page.locator('[data-chart="load"] [data-chart-table]').innerText()).toContain('36');
  });

  // Light in English and dark in Vietnamese: every lab in each language and each scheme, at half the cost.
  it.each([
    ['light', 'en'],
    ['dark', 'vi'],
  ] as const)('every lab passes axe once it has drawn (%s, %s)', { timeout: 480_000 }, async (colorScheme, lang) => {
    const context = await browser.context({ colorScheme });
    const problems: string[] = [];
    for (const lesson of LAB_PAGES) {
      {
        const page = await context.newPage();
        await page.goto(`/${lang}/${lesson}/`);
        const sim = await page.locator('course-lab').getAttribute('data-sim');
        await activate(page, sim!);
        await page.locator('course-lab details').evaluateAll((ds) =>
          ds.forEach((d) => {
            (d as HTMLDetailsElement).open = true;
          }),
        );
        // Through DevTools, not a <script> tag: the site's CSP refuses inline scripts, as it should.
        await page.evaluate(axeSource);
        const violations = (await page.evaluate(async () => {
          // @ts-expect-error axe is injected above
          const result = await window.axe.run('course-lab', { resultTypes: ['violations'] });
          return result.violations;
        })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
        for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
          problems.push(
            `/${lang}/${lesson}/: ${v.id} at ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          );
        }
        await page.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
