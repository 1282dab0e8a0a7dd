/** The one page interface every engine implements (see index.ts for how to pick and launch engines). */

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export interface Viewport {
  width: number;
  height: number;
}

export interface OpenOptions {
  /** The page's viewport in CSS pixels (1280x720 unless told; a phone is 390x844). */
  viewport?: Viewport;
  /** A phone: touch and a mobile viewport where the engine can emulate them (each engine says what it does). */
  phone?: boolean;
  /** Every request to another origin than this one is refused and recorded (see `foreignRequests`). */
  onlyOrigin?: string;
}

export interface EnginePage {
  readonly engine: EngineName;
  /** The viewport the page really got (an engine may not go as small as asked: WebKit). */
  readonly viewport: Viewport;
  /** Navigates to an absolute URL and resolves once the page has loaded. */
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page (it may be async); the argument and the result travel as JSON. */
  evaluate<R, A = null>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<Awaited<R>>;
  /** Polls `fn(arg)` in the page until it returns something truthy; fails after `timeoutMs` naming `what`. */
  waitFor<A>(what: string, fn: (arg: A) => unknown, arg: A, timeoutMs?: number): Promise<void>;
  /** Clicks the first element matching a CSS selector, waiting (up to 10 s) until there is one to click. */
  click(selector: string): Promise<void>;
  /** Presses a key chord on the focused element: `Enter`, `Control+Enter`, `Control+a`, `ArrowRight`. */
  press(keys: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  /** Console errors and uncaught errors (and unhandled rejections) of every document this page showed. */
  errors(): Promise<string[]>;
  /** With `onlyOrigin`: the requests to other origins, each refused. */
  foreignRequests(): string[];
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** A page with fresh storage (its own browser context, or its own browser), at `url`, loaded. */
  open(url: string, options?: OpenOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

export const DESKTOP: Viewport = { width: 1280, height: 720 };
export const PHONE: Viewport = { width: 390, height: 844 };
