/** What `npm start` and `npm run dev` print once they listen: the URL with the token, and what it is for. */
import { createInterface } from 'node:readline';
import { tokenURL } from '../runner/local/protocol.ts';

export interface AnnounceOptions {
  /** The server prints the URL again when Enter is pressed in its terminal (npm start: see `reprintOnEnter`). */
  reprint?: boolean;
}

export function announcement(
  base: string,
  token: string,
  opened: boolean,
  sandbox?: { confined: boolean; mechanism: string },
  opts: AnnounceOptions = {},
): string {
  const url = tokenURL(base, token);
  return [
    `Course site: ${url}`,
    `  Tiếng Việt /vi/, English /en/. Exercises are graded on this machine by the local runner.`,
    `  Open this exact URL: the part after # is this run's token, and a tab without it cannot run code here.`,
    `  Mở đúng URL này: phần sau dấu # là token của lần chạy này; tab không có nó không chạy được code trên máy.`,
    opened ? `  (opened in your browser)` : `  (no browser opened: copy the URL into one)`,
    ...(sandbox
      ? [
          sandbox.confined
            ? `  Learner code runs confined: ${sandbox.mechanism}.`
            : `  WARNING: learner code is NOT confined: ${sandbox.mechanism}. Run only code you trust.`,
        ]
      : []),
    ...(opts.reprint ? [REPRINT_HELP] : []),
    '',
  ].join('\n');
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
