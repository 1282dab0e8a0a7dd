/** What `npm start` and `npm run dev` print once they listen: the URL with the token, and what it is for. */
import { tokenURL } from '../protocol.ts';

export function announcement(base: string, token: string, opened: boolean, sandbox?: { confined: boolean; mechanism: string }): string {
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
    '',
  ].join('\n');
}
