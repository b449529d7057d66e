/**
 * The robot provider: real browsers a robot drives, one isolated browser context per instance.
 * Two adapters share one implementation (./playwright.ts): the machine's Chromium started locally
 * (default) and any browser reachable over the Chrome DevTools Protocol (ROBOTS_CDP_URL).
 */
export type BrowserAction =
  | { type: 'navigate'; url: string }
  | { type: 'click'; selector: string }
  | { type: 'type'; selector: string; text: string; submit?: boolean }
  | { type: 'wait'; selector: string }
  | { type: 'extract'; selector?: string }
  | { type: 'screenshot' };

/** What survives a pause: cookies and storage (Playwright storage state) and the page's URL. */
export interface SavedBrowserState {
  storageState: unknown;
  url: string | null;
}

export interface OpenOptions {
  siteId: string;
  instanceId: string;
  /** State saved by an earlier pause: restored, and its URL opened. */
  state?: SavedBrowserState;
  /** Decides every request of the context (the outbound guard); refused requests are aborted. */
  allowRequest: (url: string) => Promise<boolean>;
  /** The account the site belongs to and how many browsers its plan lets it run at once. */
  account: { id: string; limit: number };
}

export interface BrowserSession {
  readonly siteId: string;
  readonly instanceId: string;
  /** Performs one action; `output` is the text an `extract` read. */
  perform(action: BrowserAction): Promise<{ output: string | null }>;
  url(): string;
  /** A short view of the page for a model: title, URL and visible text (bounded). */
  describe(maxChars: number): Promise<{ title: string; url: string; text: string }>;
  screenshot(): Promise<Uint8Array>;
  save(): Promise<SavedBrowserState>;
  close(): Promise<void>;
}

export interface RobotProvider {
  readonly kind: 'local' | 'cdp';
  /**
   * A new session; 429 RATE_LIMITED beyond this process's slots. An account never holds more than
   * half of them (rounded up), so one account cannot keep every other one out. The per-site and
   * per-account limits across processes are the database's, checked before (lib/robots/slots.ts).
   */
  open(o: OpenOptions): Promise<BrowserSession>;
  /** The open session of an instance in this process, if any. */
  session(instanceId: string): BrowserSession | undefined;
  /** Open sessions, of one site or of all. */
  running(siteId?: string): number;
  /** Closes every session and the browser connection. */
  shutdown(): Promise<void>;
}
