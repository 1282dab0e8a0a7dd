/** What `npm start` and `npm run dev` print once they listen: the URL with the token, and what it is for. */
import { createInterface } from 'node:readline';
import type { Bilingual } from '../i18n/index.ts';
import { tokenURL } from '../runner/local/protocol.ts';

export interface AnnounceOptions {
  /** The server prints the URL again when Enter is pressed in its terminal (npm start: see `reprintOnEnter`). */
  reprint?: boolean;
}

export function announcement(
  base: string,
  token: string,
  opened: boolean,
  sandbox?: { confined: boolean; mechanism: string; reason?: Bilingual },
  opts: AnnounceOptions = {},
): string {
  const url = tokenURL(base, token);
  return [
    `Course site: ${url}`,
    `  Tiếng Việt /vi/, English /en/. Exercises are graded on this machine by the local runner.`,
    `  Open this exact URL: the part after # is this run's token, and a tab without it cannot run code here.`,
    `  Mở đúng URL này: phần sau dấu # là token của lần chạy này; tab không có nó không chạy được code trên máy.`,
    opened ? `  (opened in your browser)` : `  (no browser opened: copy the URL into one)`,
    ...(sandbox ? sandboxLines(sandbox) : []),
    ...(opts.reprint ? [REPRINT_HELP] : []),
    '',
  ].join('\n');
}

/** Where learner code runs, in both languages like the lines above: whoever reads it may read either. */
function sandboxLines(sandbox: { confined: boolean; mechanism: string; reason?: Bilingual }): string[] {
  if (sandbox.confined) {
    return [`  Learner code runs confined: ${sandbox.mechanism}.`, `  Code của học viên chạy trong sandbox cô lập: ${sandbox.mechanism}.`];
  }
  return [
    `  WARNING: learner code is NOT confined: ${sandbox.mechanism}. Run only code you trust.`,
    `  CẢNH BÁO: code của học viên KHÔNG được cô lập: nó chạy trong tiến trình con thông thường, với quyền, file và mạng của bạn (chỉ có môi trường sạch). Chỉ chạy code bạn tin tưởng.`,
    ...(sandbox.reason ? [`  No confinement here: ${sandbox.reason.en}`, `  Máy này không cô lập được: ${sandbox.reason.vi}`] : []),
  ];
}

const REPRINT_HELP = `  Press Enter here to print this URL again. / Bấm Enter tại đây để in lại URL này.`;

/** What Enter prints: the URL again, for a learner whose tab lost it (a bookmark, a new tab). */
export function reminder(base: string, token: string): string {
  return [`Course site: ${tokenURL(base, token)}`, `  Open this exact URL. / Mở đúng URL này.`, REPRINT_HELP, ''].join('\n');
}

/**
 * Prints `text()` each time a line is entered on `input` (Enter alone, or `u` and Enter), when `input`
 * is a terminal and this is not CI: a server run without one (a pipe, /dev/null, a service) never reads
 * its standard input. Returns whether it listens. Ctrl-C still stops the server (the terminal sends it).
 */
export function reprintOnEnter(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
  write: (text: string) => void,
  text: () => string,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (!input.isTTY || env.CI) return false;
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (line) => {
    if (line.trim() === '' || line.trim().toLowerCase() === 'u') write(text());
  });
  return true;
}
