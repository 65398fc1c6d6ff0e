import { OutboundGuard } from '@platform/outbound';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { GuardedProxy, REFUSED_HEADER } from './guarded-proxy';

/** Chromium features the capture browser runs without. */
const DISABLED_FEATURES = [
  'WebRtcHideLocalIpsWithMdns',
  'Translate',
  'MediaRouter',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'PreconnectToSearch',
  'AimEnabled',
  'CertificateTransparencyComponentUpdater',
  'DestroyProfileOnBrowserClose',
];

export interface PageBrowserOptions {
  chromiumPath: string;
  display: string;
  pulseServer: string;
  sink: string;
  width: number;
  height: number;
  guard: OutboundGuard;
  /** Origins loaded without the address check (the platform's own pages). */
  trustedOrigins: string[];
}

/** Navigation: 30 s a try, three tries, again only after a timeout or a dropped connection (LiveKit egress's rules). */
const NAVIGATION_TIMEOUT_MS = 30_000;
const NAVIGATION_TRIES = 3;
const RETRIED = /Timeout|ERR_CONNECTION_CLOSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|ERR_CERT_VERIFIER_CHANGED/;

/**
 * A headful Chromium in kiosk mode on the job's display, playing into the job's sink. Headful, because
 * headless Chromium mutes audio (playwright adds --mute-audio with headless); the first page of a persistent
 * context, because a new page would get a tab strip. Every connection the page opens goes through a
 * GuardedProxy and is checked against OUTBOUND_ALLOW (a page may not reach what the platform itself may not).
 */
export class PageBrowser {
  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
    private readonly proxy: GuardedProxy,
  ) {}

  static async launch(o: PageBrowserOptions): Promise<PageBrowser> {
    const proxy = await GuardedProxy.start(o.guard, o.trustedOrigins, (line) => process.stderr.write(`capture browser: ${line}\n`));
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-profile-'));
    const context = await chromium
      .launchPersistentContext(profile, {
        executablePath: o.chromiumPath,
        headless: false,
        viewport: null,
        env: { ...process.env, DISPLAY: o.display, PULSE_SERVER: o.pulseServer, PULSE_SINK: o.sink },
        ignoreDefaultArgs: ['--mute-audio', '--enable-automation'],
        args: [
          '--kiosk',
          '--window-position=0,0',
          `--window-size=${o.width},${o.height}`,
          '--autoplay-policy=no-user-gesture-required',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-timer-throttling',
          '--disable-backgrounding-occluded-windows',
          '--disable-renderer-backgrounding',
          '--disable-infobars',
          // WebRTC (a broadcast's compositor): host candidates as addresses, which the SFU can reach, not mDNS names.
          // This list replaces playwright's own (the last --disable-features wins), so it repeats the ones of those that
          // keep the browser from calling Google's services at start-up (network time, optimization hints, preconnects).
          `--disable-features=${DISABLED_FEATURES.join(',')}`,
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          // every connection through the guard, loopback included (Chromium sends loopback direct by default)
          `--proxy-server=${proxy.url}`,
          '--proxy-bypass-list=<-loopback>',
        ],
        serviceWorkers: 'block',
      })
      .catch(async (err: unknown) => {
        fs.rmSync(profile, { recursive: true, force: true });
        await proxy.close();
        throw err;
      });
    const page = context.pages()[0] ?? (await context.newPage());
    return new PageBrowser(context, page, profile, proxy);
  }

  /** Loads `url`; a page answering 400 or more, or never loading, is an error. */
  async open(url: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.page.goto(url, { timeout: NAVIGATION_TIMEOUT_MS, waitUntil: 'load' });
        const refused = response?.headers()[REFUSED_HEADER];
        if (refused) throw new Error(`refused by OUTBOUND_ALLOW: ${refused}`);
        if (response && response.status() >= 400) throw new Error(`the page answered HTTP ${response.status()}`);
        return;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (attempt >= NAVIGATION_TRIES || !RETRIED.test(message)) throw new Error(`could not load ${url}: ${message.split('\n')[0]}`, { cause: err });
      }
    }
  }

  async reload(): Promise<void> {
    await this.page.reload({ timeout: NAVIGATION_TIMEOUT_MS, waitUntil: 'load' });
  }

  onClosed(listener: (why: string) => void): void {
    this.context.once('close', () => listener('the browser closed'));
    this.page.once('crash', () => listener('the page crashed'));
  }

  /** Closes the browser, waiting at most `ms` (the caller then kills its process group, then removes the profile). */
  async close(ms = 5000): Promise<void> {
    await Promise.race([this.context.close().catch(() => undefined), new Promise((r) => setTimeout(r, ms))]);
    await this.proxy.close();
  }

  /** Once the browser's processes are gone: before, its helpers may still write into the profile (ENOTEMPTY). */
  removeProfile(): void {
    fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Chromium's main process: playwright starts it detached, the leader of a process group of its own. */
  static browserGroup(parent = process.pid): number | undefined {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(ppid) === parent && Number(pgrp) === Number(entry) && /chrom/i.test(comm)) return Number(entry);
      } catch {
        // gone meanwhile
      }
    }
    return undefined;
  }
}
