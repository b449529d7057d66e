import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { startEgressProxy } from '@/lib/net/egress-proxy';
import { accountRobotsFull, processRobotsFull } from './limits';
import type { BrowserAction, BrowserSession, OpenOptions, RobotProvider, SavedBrowserState } from './port';

/** Playwright (~40 MB resident) loads when a browser is first needed, not with every process that can start robots. */
const chromium = () => import('playwright-core').then((m) => m.chromium);

/**
 * Both robot adapters over Playwright: one shared browser (a local Chromium process, or one CDP
 * connection) and a browser context per instance, so instances share nothing (cookies, storage,
 * cache). Every request a context makes passes `allowRequest` first; service workers are blocked
 * so none escapes it. The browser is closed when the last context has been idle for a minute.
 */

export type PlaywrightRobotsOptions = { total: number; actionTimeoutMs: number } & (
  { kind: 'local'; executablePath: string } | { kind: 'cdp'; endpoint: string }
);

/** Flags of the local Chromium: headless, no sandbox (containers), nothing phoning home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * The local Chromium's one way out: every connection through the egress proxy (loopback too —
 * `<-loopback>` removes Chromium's implicit loopback bypass), and WebRTC limited to proxied
 * traffic, so no UDP leaves the browser and TURN over TCP is tunnelled through the proxy too.
 */
export const egressArgs = (proxyUrl: string) => [
  `--proxy-server=${proxyUrl}`,
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
const VIEWPORT = { width: 1280, height: 800 };
const BROWSER_IDLE_MS = 60_000;
const EXTRACT_MAX_CHARS = 10_000;

export function playwrightRobots(o: PlaywrightRobotsOptions): RobotProvider {
  const sessions = new Map<string, BrowserSession>();
  /** Slots taken by sessions being opened, so concurrent opens cannot pass the caps together. */
  const reserved: { siteId: string; accountId: string }[] = [];
  const accountOf = new Map<string, string>();
  let browser: Promise<Browser> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;

  const count = (of: { siteId?: string; accountId?: string } = {}) => {
    const holders = [...[...sessions.values()].map((s) => ({ siteId: s.siteId, accountId: accountOf.get(s.instanceId) })), ...reserved];
    return holders.filter((h) => (of.siteId === undefined || h.siteId === of.siteId) && (of.accountId === undefined || h.accountId === of.accountId))
      .length;
  };

  function connect(): Promise<Browser> {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (!browser) {
      const started = (
        o.kind === 'local' ? launchLocal(o.executablePath) : chromium().then((c) => c.connectOverCDP(o.endpoint, { timeout: 60_000 }))
      ).then((b) => {
        b.on('disconnected', () => {
          if (browser === started) browser = undefined;
          sessions.clear();
          accountOf.clear();
        });
        return b;
      });
      browser = started;
      started.catch(() => {
        if (browser === started) browser = undefined;
      });
    }
    return browser;
  }

  /** A local Chromium with its own egress proxy, which closes with it. */
  async function launchLocal(executablePath: string): Promise<Browser> {
    const proxy = await startEgressProxy();
    try {
      const b = await (await chromium()).launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...egressArgs(proxy.url)] });
      b.on('disconnected', () => void proxy.close());
      return b;
    } catch (error) {
      await proxy.close();
      throw error;
    }
  }

  async function closeBrowser(): Promise<void> {
    const current = browser;
    browser = undefined;
    if (!current) return;
    try {
      await (await current).close();
    } catch {
      // already gone
    }
  }

  function idleCheck() {
    if (sessions.size > 0 || count() > 0 || idleTimer) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (sessions.size === 0 && count() === 0) void closeBrowser();
    }, BROWSER_IDLE_MS);
    idleTimer.unref();
  }

  /**
   * Takes one of this process's slots. The per-site and per-account limits are the database's
   * (lib/robots/slots.ts); here only this machine's: `total` browsers, and an account at most
   * half of them (rounded up), so one account cannot keep every other one out.
   */
  function reserve(siteId: string, account: OpenOptions['account']): () => void {
    if (count() >= o.total) throw processRobotsFull();
    const share = Math.min(account.limit, Math.ceil(o.total / 2));
    if (count({ accountId: account.id }) >= share) throw accountRobotsFull(share);
    const slot = { siteId, accountId: account.id };
    reserved.push(slot);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      reserved.splice(reserved.indexOf(slot), 1);
    };
  }

  async function open(opts: OpenOptions): Promise<BrowserSession> {
    if (sessions.has(opts.instanceId)) throw new ApiError('CONFLICT', 'This instance already has a running browser');
    const release = reserve(opts.siteId, opts.account);
    let context: BrowserContext | undefined;
    try {
      let b: Browser;
      try {
        b = await connect();
      } catch (error) {
        log.error('robot browser unavailable', { kind: o.kind, ...errorFields(error) });
        throw new ApiError('PROVIDER_NOT_CONFIGURED', `The robot browser (${o.kind}) could not be started or reached`);
      }
      context = await b.newContext({
        viewport: VIEWPORT,
        serviceWorkers: 'block',
        acceptDownloads: false,
        ...(opts.state?.storageState ? { storageState: opts.state.storageState as never } : {}),
      });
      await context.route('**/*', async (route) => {
        if (await opts.allowRequest(route.request().url())) await route.continue();
        else await route.abort('blockedbyclient');
      });
      await context.routeWebSocket(/.*/, async (ws) => {
        if (await opts.allowRequest(ws.url())) ws.connectToServer();
        else await ws.close({ code: 1008, reason: 'refused' });
      });
      const page = await context.newPage();
      page.setDefaultTimeout(o.actionTimeoutMs);
      page.setDefaultNavigationTimeout(o.actionTimeoutMs);
      if (opts.state?.url && /^https?:/.test(opts.state.url)) {
        await page.goto(opts.state.url, { waitUntil: 'load' }).catch(() => undefined);
      }
      const session = browserSession(opts, context, page, o.actionTimeoutMs, () => {
        if (sessions.get(opts.instanceId) === session) {
          sessions.delete(opts.instanceId);
          accountOf.delete(opts.instanceId);
        }
        idleCheck();
      });
      sessions.set(opts.instanceId, session);
      accountOf.set(opts.instanceId, opts.account.id);
      return session;
    } catch (error) {
      await context?.close().catch(() => undefined);
      throw error;
    } finally {
      release();
      idleCheck();
    }
  }

  return {
    kind: o.kind,
    open,
    session: (instanceId) => sessions.get(instanceId),
    running: (siteId) => [...sessions.values()].filter((s) => siteId === undefined || s.siteId === siteId).length,
    async shutdown() {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      await Promise.all([...sessions.values()].map((s) => s.close()));
      sessions.clear();
      accountOf.clear();
      await closeBrowser();
    },
  };
}

function browserSession(opts: OpenOptions, context: BrowserContext, page: Page, timeout: number, onClose: () => void): BrowserSession {
  let closed = false;
  const settle = () => page.waitForLoadState('load', { timeout }).catch(() => undefined);
  return {
    siteId: opts.siteId,
    instanceId: opts.instanceId,
    async perform(action: BrowserAction) {
      switch (action.type) {
        case 'navigate':
          await page.goto(action.url, { waitUntil: 'load' });
          return { output: null };
        case 'click':
          await page.locator(action.selector).first().click();
          await settle();
          return { output: null };
        case 'type': {
          const field = page.locator(action.selector).first();
          await field.fill(action.text);
          if (action.submit) {
            await field.press('Enter');
            await settle();
          }
          return { output: null };
        }
        case 'wait':
          await page.locator(action.selector).first().waitFor({ state: 'visible' });
          return { output: null };
        case 'extract': {
          const text = await page
            .locator(action.selector ?? 'body')
            .first()
            .innerText();
          return { output: text.slice(0, EXTRACT_MAX_CHARS) };
        }
        case 'screenshot':
          return { output: null };
      }
    },
    url: () => page.url(),
    async describe(maxChars) {
      const [title, text] = await Promise.all([
        page.title().catch(() => ''),
        page
          .locator('body')
          .innerText({ timeout })
          .catch(() => ''),
      ]);
      return { title, url: page.url(), text: text.slice(0, maxChars) };
    },
    screenshot: async () => new Uint8Array(await page.screenshot({ type: 'png' })),
    async save(): Promise<SavedBrowserState> {
      const url = page.url();
      return { storageState: await context.storageState(), url: /^https?:/.test(url) ? url : null };
    },
    async close() {
      if (closed) return;
      closed = true;
      onClose();
      await context.close().catch(() => undefined);
    },
  };
}
