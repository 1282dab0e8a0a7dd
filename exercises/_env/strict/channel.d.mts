export const MAX_LINE: number;
export interface Channel {
  send(msg: object): void;
  waitUntil(done: () => boolean): void;
  ref(): void;
  unref(): void;
  close(): void;
}
// biome-ignore lint/suspicious/noExplicitAny: messages are parsed JSON, checked by the membrane
export function openChannel(socket: string | number, onMessage: (msg: any) => void, opts: { keepAlive: boolean }): Channel;
