import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { Browser, chromium, Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');
/** The spaces service's own test participant: a solid-colour canvas and a 1 kHz tone (or silence) published through our browser SDK. */
const TEST_PARTICIPANT = fs.readFileSync(path.join(ROOT, 'services/spaces/src/realtime/testing/test-participant.mjs'), 'utf8');

/** The spaces host of the platform global-setup booted. */
export const spacesUrl = (): string => process.env.E2E_SPACES_URL ?? '';

/** A join token as Mux's sample apps signed one: RS256 with a signing key, `aud` rt, `sub` the space, `participant_id`. */
export function signJoinToken(key: { id: string; private_key: string }, spaceId: string, participantId: string): Promise<string> {
  return new SignJWT({ participant_id: participantId })
    .setProtectedHeader({ alg: 'RS256', kid: key.id })
    .setSubject(spaceId)
    .setAudience('rt')
    .setExpirationTime('1h')
    .sign(createPrivateKey(Buffer.from(key.private_key, 'base64').toString()));
}

/** Headless Debian Chromium whose pages join spaces on `spacesUrl` as participants. */
export class SpaceParticipants {
  private constructor(
    private readonly browser: Browser,
    private readonly spacesUrl: string,
  ) {}

  static async launch(spacesUrl: string): Promise<SpaceParticipants> {
    const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim();
    const browser = await chromium.launch({
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--autoplay-policy=no-user-gesture-required',
        '--disable-features=WebRtcHideLocalIpsWithMdns',
        '--disable-background-timer-throttling',
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
      ],
    });
    return new SpaceParticipants(browser, spacesUrl);
  }

  /** A page publishing `colour` (a `width`×90 canvas at 15 fps) and the tone when `tone`; resolves once it has joined. */
  async join(token: string, colour: [number, number, number], tone: boolean, width = 160): Promise<Page> {
    const page = await this.browser.newPage();
    await page.goto(`${this.spacesUrl}/spaces/client.js`);
    await page.addScriptTag({ type: 'module', content: TEST_PARTICIPANT });
    await page.waitForFunction('window.testParticipantReady === true');
    await page.evaluate(`window.startParticipant(${JSON.stringify({ token, colour, tone, width })})`);
    return page;
  }

  static async setTone(page: Page, on: boolean): Promise<void> {
    await page.evaluate(`window.setTone(${JSON.stringify(on)})`);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
