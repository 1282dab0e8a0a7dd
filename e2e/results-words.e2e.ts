/**
 * Issue 28, item 5: in Vietnamese, a parameterized test keeps its failing input in its name (not
 * "Kiểm thử 3/14"), and what vitest saw is framed in the page's language, vitest's own words kept
 * under it. deadline-middleware with parseInt (D1 fails for "12.5" and "100abc"), graded in the page.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBrowser, useBrowser } from './fixtures.ts';
import { pasteCode, runToEnd, workspace } from './run-helpers.ts';

/** The reference with one of its known bugs (solutions/<id>/buggy/*.patch) applied. */
function buggy(id: string, file: string, patch: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'buggy-'));
  writeFileSync(join(dir, file), readFileSync(`solutions/${id}/${file}`, 'utf8'));
  execFileSync('patch', ['-s', '-p1', '-i', join(process.cwd(), `solutions/${id}/buggy/${patch}`)], { cwd: dir });
  return readFileSync(join(dir, file), 'utf8');
}

describe.skipIf(skipBrowser())('what a failing test saw, in the page’s language', () => {
  const browser = useBrowser();

  it('(vi) the failing cases of a parameterized test are named with their input, and the failure is framed in Vietnamese', async () => {
    const code = buggy('fan-out', 'fan-out.ts', 'not-floored.patch');
    const { page, errors } = await browser.open('/vi/deadlines/fan-out/');
    const root = workspace(page, 'fan-out');
    await pasteCode(page, root, code);
    const started = Date.now();
    const summary = await runToEnd(page, root);
    console.log(`not-floored: ${summary} (${Date.now() - started} ms to the end of the run)`);

    const failing = root.locator('.ws-rule-group[data-status="fail"][data-rule="F2"] .ws-test[data-status="fail"]');
    const names = await failing.locator('.ws-test-name').allTextContents();
    const english = await failing.evaluateAll((els) => els.map((e) => (e as HTMLElement).title));
    console.log(names.join(' | '));
    expect(english).toContain('F2 with remaining() = 1000.7 and options {}: required 980 ms, optional 980 ms');
    expect(names).toContain('với remaining() = 1000.7 và options {}: nhánh bắt buộc 980 ms, nhánh tuỳ chọn 980 ms');
    // Every failing case is named with its input, never numbered.
    expect(names).toHaveLength(english.length);
    for (const [i, en] of english.entries()) expect(names[i], en).toContain(/remaining\(\) = [\d.]+ /.exec(en)![0].replace('remaining() = ', ''));
    expect(names.filter((n) => /^Kiểm thử \d+\/\d+$/.test(n))).toEqual([]);

    // What the test saw: a Vietnamese sentence with the two values, then vitest's words, labelled.
    const first = failing.first();
    await first.locator('summary').click();
    expect(await first.locator('.ws-label').allTextContents()).toEqual(['Điều test quan sát được', 'Vitest báo (nguyên văn, tiếng Anh)']);
    const quoted = (await first.locator('pre').first().textContent())!;
    const [, got, wanted] = /expected ([\d.]+) to be (\d+) \/\/ Object\.is equality$/.exec(quoted)!;
    expect(await first.locator('.ws-observed').textContent()).toBe(`Kiểm thử mong đợi ${wanted} nhưng nhận được ${got}.`);
    expect(await first.locator('pre').first().getAttribute('lang')).toBe('en');
    expect(errors).toEqual([]);
  }, 120_000);
});
