import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '@platform/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { RealtimeServer } from './realtime-server';
import { verifyTestToken } from './testing/test-tokens';

// Three Chromium pages publish a solid colour each (red, green, blue; blue's canvas 4:3, the others
// 16:9) and page 1 a tone, through the werift SFU; then the compositor page is checked by screenshots.

jest.setTimeout(60_000);

const SPACE = 'space-1';
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const MAGENTA = [255, 0, 255];
const COLOURS: Record<string, number[]> = { p1: RED, p2: GREEN, p3: BLUE };
const BACKGROUND = `data:image/svg+xml,${encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' width='16' height='9'><rect width='16' height='9' fill='#ff00ff'/></svg>")}`;

/** How long the waits below poll, every 200 ms (15 s unless said). */
const poll = (timeoutMs = 15_000) => ({ timeoutMs, intervalMs: 200 });

const near = (actual: number[] | undefined, expected: number[]) => !!actual && expected.every((value, i) => Math.abs(actual[i] - value) <= 60);

const TEST_PARTICIPANT = readFileSync(join(__dirname, 'testing', 'test-participant.mjs'), 'utf8');
const CHROMIUM_ARGS = (JSON.parse(readFileSync(join(__dirname, 'testing', 'chromium-args.json'), 'utf8')) as { args: string[] }).args;

/** Runs `window.<name>(...args)` in the page (the test's browser code is plain JavaScript, see testing/). */
function call<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate<T>(`window.${name}(...${JSON.stringify(args)})`);
}

/** A page of the server's origin with testing/test-participant.mjs loaded. */
async function openTestPage(browser: Browser, base: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${base}/spaces/client.js`);
  await page.addScriptTag({ type: 'module', content: TEST_PARTICIPANT });
  await page.waitForFunction('window.testParticipantReady === true');
  return page;
}

/** Opens a participant publishing a canvas of `colour` (90 px high) and a 1 kHz tone, or silence. */
async function openParticipant(browser: Browser, base: string, participantId: string, colour: number[], tone: boolean, width = 160): Promise<Page> {
  const page = await openTestPage(browser, base);
  await call(page, 'startParticipant', { token: `${SPACE}:${participantId}`, colour, tone, width });
  return page;
}

/** Opens the compositor page at 640×360; resolves once it printed START_RECORDING. */
async function openCompositor(browser: Browser, base: string, participantId: string, layout: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
  const started = new Promise<void>((resolve) => page.on('console', (message) => message.text() === 'START_RECORDING' && resolve()));
  const query = new URLSearchParams({ token: `${SPACE}:${participantId}:hidden`, layout, width: '640', height: '360', background: BACKGROUND });
  await page.goto(`${base}/spaces/compositor?${query.toString()}`);
  await started;
  return page;
}

/** The colours of a page's screenshot at the given points, decoded by the browser in `decoder`. */
async function screenshotColours(page: Page, decoder: Page, points: [number, number][]): Promise<number[][]> {
  const png = (await page.screenshot({ type: 'png' })).toString('base64');
  return call<number[][]>(decoder, 'pngColours', png, points);
}

describe('RealtimeServer with Chromium participants', () => {
  let server: RealtimeServer;
  let browser: Browser;
  let base: string;
  const joined: string[] = [];
  const left: string[] = [];

  beforeAll(async () => {
    server = new RealtimeServer({
      host: '127.0.0.1',
      verifyToken: verifyTestToken,
      disconnectGraceMs: 5_000,
      listener: {
        onParticipantJoined: (spaceId, participant) => void joined.push(`${spaceId}/${participant.id}${participant.hidden ? ' (hidden)' : ''}`),
        onParticipantLeft: (spaceId, participantId, hidden) => void left.push(`${spaceId}/${participantId}${hidden ? ' (hidden)' : ''}`),
      },
    });
    const { port } = await server.listen();
    base = `http://127.0.0.1:${port}`;
    const executablePath = execFileSync('bash', [join(__dirname, '../../../../scripts/infra/chromium.sh')], { encoding: 'utf8' }).trim();
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('forwards every participant to the others, picks the active speaker, composites, and reports leaves', async () => {
    const pages: Page[] = [];
    for (const [index, id] of ['p1', 'p2', 'p3'].entries()) {
      pages.push(await openParticipant(browser, base, id, COLOURS[id], id === 'p1', id === 'p3' ? 120 : 160));
      // One at a time, so that the join order is known.
      await until(`${id} joined`, () => server.visibleCount(SPACE) === index + 1, poll());
    }
    expect(joined).toEqual([`${SPACE}/p1`, `${SPACE}/p2`, `${SPACE}/p3`]);
    expect(server.participants(SPACE)).toEqual([
      { id: 'p1', hidden: false },
      { id: 'p2', hidden: false },
      { id: 'p3', hidden: false },
    ]);

    // Each page decodes the two others' colours.
    for (const [index, page] of pages.entries()) {
      const self = `p${index + 1}`;
      const others = Object.keys(COLOURS).filter((id) => id !== self);
      const colours = await until(
        `${self} decoding ${others.join(' and ')}`,
        async () => {
          const sampled: Record<string, number[]> = await call(page, 'sampleVideos');
          return others.every((id) => near(sampled[id], COLOURS[id])) ? sampled : undefined;
        },
        poll(),
      );
      expect(Object.keys(colours).sort()).toEqual(others);
    }

    await until('p1 as the active speaker', () => server.activeSpeaker(SPACE) === 'p1', poll());
    for (const page of pages) await until('the pages told of p1', async () => (await page.evaluate('window.speakers.at(-1)')) === 'p1', poll());

    // active-speaker layout: the whole frame is p1's red.
    const speakerView = await openCompositor(browser, base, 'c1', 'active-speaker');
    const corners: [number, number][] = [
      [320, 180],
      [20, 20],
      [620, 340],
    ];
    await until(
      'the active-speaker layout showing red',
      async () => (await screenshotColours(speakerView, pages[0], corners)).every((c) => near(c, RED)),
      poll(),
    );
    expect(joined).toContain(`${SPACE}/c1 (hidden)`);
    expect(server.visibleCount(SPACE)).toBe(3);

    // The tone moves to p2: the server, every page and the compositor switch to p2.
    await call(pages[0], 'setTone', false);
    await call(pages[1], 'setTone', true);
    const switchedAt = Date.now();
    await until('p2 as the active speaker', () => server.activeSpeaker(SPACE) === 'p2', poll(8_000));
    expect(Date.now() - switchedAt).toBeGreaterThanOrEqual(1_500);
    for (const page of pages) await until('the pages told of p2', async () => (await page.evaluate('window.speakers.at(-1)')) === 'p2', poll());
    await until('the active-speaker layout showing green', async () => near((await screenshotColours(speakerView, pages[0], [[320, 180]]))[0], GREEN), poll());

    // gallery layout of 3 at 640×360: a 2×2 grid of 320×180 tiles in join order, the fourth cell the
    // background, and background bars beside p3's 4:3 picture (object-fit: contain).
    const gallery = await openCompositor(browser, base, 'c2', 'gallery');
    const points: [number, number][] = [
      [160, 90],
      [480, 90],
      [160, 270],
      [480, 270],
      [20, 270],
    ];
    const galleryColours = [RED, GREEN, BLUE, MAGENTA, MAGENTA];
    await until('the gallery tiles', async () => (await screenshotColours(gallery, pages[0], points)).every((c, i) => near(c, galleryColours[i])), poll());

    // crop: the same grid, but p3's picture fills its tile (object-fit: cover).
    const crop = await openCompositor(browser, base, 'c3', 'crop');
    const cropColours = [RED, GREEN, BLUE, MAGENTA, BLUE];
    await until('the crop tiles', async () => (await screenshotColours(crop, pages[0], points)).every((c, i) => near(c, cropColours[i])), poll());

    // Hidden participants are neither announced to the others nor counted.
    for (const [index, page] of pages.entries()) {
      const others = ['p1', 'p2', 'p3'].filter((_, i) => i !== index).map((id) => ({ id, joined: true }));
      expect(await page.evaluate('window.participantEvents')).toEqual(others);
    }
    expect(server.participants(SPACE).filter((p) => p.hidden)).toEqual([
      { id: 'c1', hidden: true },
      { id: 'c2', hidden: true },
      { id: 'c3', hidden: true },
    ]);
    expect(server.visibleCount(SPACE)).toBe(3);

    // p3 leaves: the others' subscribe PeerConnections drop its tracks, and the gallery has two tiles
    // (2×1 of 320×180, centred vertically).
    await pages[2].close();
    for (const page of pages.slice(0, 2)) {
      await until('p3 tracks ended', async () => (await page.evaluate<string[]>('window.endedTracks')).length === 2, poll());
      expect((await page.evaluate<string[]>('window.endedTracks')).sort()).toEqual(['p3 audio', 'p3 video']);
    }
    const twoTiles: [number, number][] = [
      [160, 180],
      [480, 180],
      [320, 30],
      [320, 330],
    ];
    const twoTileColours = [RED, GREEN, MAGENTA, MAGENTA];
    await until('the gallery of two', async () => (await screenshotColours(gallery, pages[0], twoTiles)).every((c, i) => near(c, twoTileColours[i])), poll());
    expect(server.visibleCount(SPACE)).toBe(2);

    for (const page of [speakerView, gallery, crop, pages[0], pages[1]]) await page.close();
    await until('everyone to leave', () => left.length === 6, poll(10_000));
    expect([...left].sort()).toEqual([`${SPACE}/c1 (hidden)`, `${SPACE}/c2 (hidden)`, `${SPACE}/c3 (hidden)`, `${SPACE}/p1`, `${SPACE}/p2`, `${SPACE}/p3`]);
    expect(server.visibleCount(SPACE)).toBe(0);
    expect(server.participants(SPACE)).toEqual([]);
  });
});
