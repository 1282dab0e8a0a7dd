/**
 * The local runner as `npm start` serves it (scripts/serve.ts: the built site, the runner, confined in
 * bubblewrap where this machine has it), from the learner's side: what a run lists, and what a tab
 * opened without the printed token does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinementStatus } from '../src/grading/node/confinement.ts';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { pasteCode, runToEnd, waitForPhase, workspace } from './run-helpers.ts';
import { serveSite, withRunnerToken, type ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';
import { read } from './workspace-helpers.ts';

let site: ServedSite | undefined;
beforeAll(async () => {
  if (!skipBrowser()) site = await serveSite(DIST, 'local-runner');
});
afterAll(() => site?.stop());

describe.skipIf(skipBrowser())('the local runner (npm start)', () => {
  const browser = useBrowser();

  it('grades the reference solution twice in a row with no type error listed (confined where the machine can confine runs)', async () => {
    const { page, errors } = await browser.open(withRunnerToken(site!, `${site!.url}/en/when-to-retry/one-layer/`), { baseURL: site!.url });
    const root = workspace(page, 'retry-helper');
    await pasteCode(page, root, read('solutions/retry-helper/retry.ts'));
    const confined = confinementStatus().available && process.env.COURSE_RUNNER_UNCONFINED !== '1';
    for (const run of [1, 2]) {
      const summary = await runToEnd(page, root);
      console.log(`reference, run ${run}: ${summary} (${await root.locator('.ws-types pre').count()} type error blocks)`);
      expect(summary, `run ${run}`).toMatch(/^(\d+)\/\1 tests passed/);
      expect(summary).toContain(confined ? 'in a confined sandbox' : 'not confined');
      // 15 phantom TS2304s (AbortSignal, setTimeout, Response…) here before the warm checker read the confined workspace's packages.
      // (allTextContents does not wait for an element, as textContent would when there is none.)
      expect(await root.locator('.ws-types').count(), (await root.locator('.ws-types').allTextContents()).join('\n')).toBe(0);
    }
    expect(errors).toEqual([]);
  }, 180_000);

  const notice = {
    en: /^This tab was not opened from the address npm start \(or npm run dev\) printed, so it grades in this page\..*#runner-token=….*press Enter in the terminal running npm start to print it again\.$/,
    vi: /^Tab này không được mở từ địa chỉ mà npm start \(hoặc npm run dev\) in ra, nên bài được chấm ngay trong trang\..*#runner-token=….*bấm Enter trong terminal đang chạy npm start để in lại địa chỉ\.$/,
  };

  /** A tab of the npm start site opened without the printed URL, recording every host the page asks. */
  const openBare = async (path: string) => {
    const context = await browser.context({ baseURL: site!.url });
    const page = await context.newPage();
    const hosts = new Set<string>();
    // Only the network counts: blob: and data: URLs (the page's own workers and files) ask no host.
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (/^(https?|wss?):$/.test(url.protocol)) hosts.add(url.host);
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site!.url}${path}`);
    return { page, hosts, errors, root: workspace(page, 'retry-helper') };
  };
  const shownNotices = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-runner-token-missing]')]
        .filter((n) => n.checkVisibility())
        .map((n) => ({ text: n.innerText, inWorkspace: n.closest('course-workspace') !== null })),
    );

  it('a tab without the token grades in the page at once, says once in the workspace how to reach the local runner, and asks no third party (?runner=webcontainer too)', async () => {
    const { page, hosts, errors, root } = await openBare('/en/when-to-retry/one-layer/?runner=webcontainer');
    await waitForPhase(page, root, ['ready', 'standby', 'unavailable'], 20_000);
    expect(await root.getAttribute('data-phase'), 'no WebContainer waiting for StackBlitz').toBe('ready');
    expect(await root.locator('[data-state]').textContent()).toBe('Runner: this page (a Web Worker, no server needed). Ready to run.');
    const shown = await shownNotices(page);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.inWorkspace).toBe(true);
    expect(shown[0]!.text).toMatch(notice.en);
    await pasteCode(page, root, read('solutions/retry-helper/retry.ts'));
    const started = Date.now();
    const summary = await runToEnd(page, root);
    console.log(`tokenless tab: ${summary} after ${Date.now() - started} ms`);
    const failed = (await root.locator('.ws-rule-group[data-status="fail"]').allInnerTexts()).join('\n');
    expect(summary, failed).toMatch(/^(\d+)\/\1 tests passed .*graded in this page$/);
    expect([...hosts], 'the page asked only the server that serves it').toEqual([new URL(site!.url).host]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('(vi) a tab holding the token of an earlier run is told the same, in Vietnamese', async () => {
    const { page, hosts, root } = await openBare(`/vi/when-to-retry/one-layer/#runner-token=${'x'.repeat(43)}`);
    await waitForPhase(page, root, ['ready', 'standby', 'unavailable'], 20_000);
    expect(await root.getAttribute('data-phase')).toBe('ready');
    const shown = await shownNotices(page);
    expect(shown.map((n) => n.inWorkspace)).toEqual([true]);
    expect(shown[0]!.text).toMatch(notice.vi);
    expect([...hosts]).toEqual([new URL(site!.url).host]);
  });

  it('a tab with the token is not told anything', async () => {
    const { page } = await browser.open(withRunnerToken(site!, `${site!.url}/en/when-to-retry/one-layer/`), { baseURL: site!.url });
    const root = workspace(page, 'retry-helper');
    await waitForPhase(page, root, ['ready'], 20_000);
    expect(await root.locator('[data-state]').textContent()).toMatch(/^Runner: your computer/);
    expect(await shownNotices(page)).toEqual([]);
  });

  // The other half of the notice: `npm start` in a terminal prints the URL again on Enter. util-linux's
  // `script` gives the server a terminal (a pseudo-terminal), as a learner's shell does.
  it.skipIf(spawnSync('script', ['--version']).error !== undefined)(
    'npm start, in a terminal, prints the URL with its token again when Enter is pressed',
    async () => {
      const port = await new Promise<number>((done) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => done(port));
        });
      });
      const { CI: _ci, ...env } = process.env; // the server does not read a terminal under CI
      const command = `node_modules/.bin/tsx scripts/serve.ts --port ${port} --dist ${DIST} --no-open`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const until = async (seen: () => boolean, what: string) => {
        for (const end = Date.now() + 30_000; !seen(); await new Promise((r) => setTimeout(r, 100))) {
          if (Date.now() > end) throw new Error(`no ${what} within 30 s:\n${out}`);
        }
      };
      const urls = () => out.match(new RegExp(`http://localhost:${port}/#runner-token=[\\w-]{43}`, 'g')) ?? [];
      try {
        await until(() => out.includes('Press Enter here to print this URL again.'), 'offer to print the URL again');
        expect(urls()).toHaveLength(1);
        child.stdin.write('\n');
        await until(() => urls().length === 2, 'URL printed again');
        expect(new Set(urls()).size, 'the same URL, with the same token').toBe(1);
        expect(out).toContain('Open this exact URL. / Mở đúng URL này.');
      } finally {
        child.stdin.write('\x03'); // Ctrl-C, as the learner stops it
        child.kill();
      }
    },
  );
});
