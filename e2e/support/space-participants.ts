import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { Browser, chromium, Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');
const TESTING = path.join(ROOT, 'services/spaces/src/realtime/testing');
/** The spaces service's own test participant: a solid-colour canvas and a 1 kHz tone (or silence) published through our browser SDK. */
const TEST_PARTICIPANT = fs.readFileSync(path.join(TESTING, 'test-participant.mjs'), 'utf8');
/** The Chromium flags its pages need (the realtime int-spec and the spaces bench launch with the same). */
const CHROMIUM_ARGS = (JSON.parse(fs.readFileSync(path.join(TESTING, 'chromium-args.json'), 'utf8')) as { args: string[] }).args;

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

/** The signaling server closed the connection before the participant joined: its close code (4401 for a refused token) and reason. */
export class SpaceJoinRefused extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`the spaces server closed the connection before the join (${code}: ${reason})`);
    this.name = 'SpaceJoinRefused';
  }
}

/** Headless Debian Chromium whose pages join spaces on `spacesUrl` as participants. */
export class SpaceParticipants {
  private constructor(
    private readonly browser: Browser,
    private readonly spacesUrl: string,
  ) {}

  static async launch(spacesUrl: string): Promise<SpaceParticipants> {
    const executablePath = execFileSync('bash', [path.join(ROOT, 'scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim();
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    return new SpaceParticipants(browser, spacesUrl);
  }

  /**
   * A page publishing `colour` (a `width`×90 canvas at 15 fps) and the tone when `tone`; resolves once it has joined.
   * Rejects with a SpaceJoinRefused (its page closed) when the server closes the connection first, e.g. 4401 for a refused token.
   */
  async join(token: string, colour: [number, number, number], tone: boolean, width = 160): Promise<Page> {
    const page = await this.browser.newPage();
    await page.goto(`${this.spacesUrl}/spaces/client.js`);
    await page.addScriptTag({ type: 'module', content: TEST_PARTICIPANT });
    await page.waitForFunction('window.testParticipantReady === true');
    try {
      await page.evaluate(`window.startParticipant(${JSON.stringify({ token, colour, tone, width })})`);
    } catch (err) {
      // the browser SDK's rejection names the close only in its message; the page kept the close itself
      const closed = await page.evaluate<{ code: number; reason: string } | undefined>('window.closeEvent').catch(() => undefined);
      await page.close().catch(() => undefined);
      throw closed ? new SpaceJoinRefused(closed.code, closed.reason) : err;
    }
    return page;
  }

  static async setTone(page: Page, on: boolean): Promise<void> {
    await page.evaluate(`window.setTone(${JSON.stringify(on)})`);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
