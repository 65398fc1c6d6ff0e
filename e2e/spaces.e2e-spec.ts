import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { until } from '@platform/testing';
import { galleryGrid } from '../services/spaces/src/realtime/gallery-grid';
import { api, platform, sdk } from './support/context';
import { bandLevel, Colour, colourAt, LiveSegments } from './support/live-signals';
import { FFMPEG } from './support/media';
import { signJoinToken, SpaceJoinRefused, SpaceParticipants, spacesUrl } from './support/space-participants';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

/**
 * Spaces (spec 2.10, 4.10, 3): participants are Chromium pages publishing a solid colour (and, for one, a
 * 1 kHz tone) through our SFU with RS256 join tokens; each broadcast layout is checked on the frames of the
 * live stream it feeds, read back from the live HLS with ffmpeg.
 */
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const WIDTH = 1280;
const HEIGHT = 720;

interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}
const bodyOf = (w: ReceivedWebhook) => JSON.parse(w.body) as WebhookBody;

jest.setTimeout(300_000);

// Three browsers, an SFU and a compositor with its encoder: the heaviest file, so it runs in the production-mode
// e2e run only, the shorter of npm test's two side by side (the embedded run has the kill and restart drills). The
// embedded mode still takes a space and its broadcast through every state in the events walk (event-walk.ts).
const inOneRun = platform.mode === 'production' ? describe : describe.skip;

inOneRun('spaces (spec 2.10, 4.10)', () => {
  const mux = sdk();
  let server: http.Server;
  let backgroundUrl: string;
  let dir: string;
  let key: { id: string; private_key: string };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spaces-e2e-'));
    const background = path.join(dir, 'background.png');
    execFileSync(FFMPEG, ['-v', 'error', '-f', 'lavfi', '-i', `color=c=#ff00ff:s=${WIDTH}x${HEIGHT}`, '-frames:v', '1', background]);
    server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(fs.readFileSync(background)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    backgroundUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/background.png`;
    key = (await mux.system.signingKeys.create()) as { id: string; private_key: string };
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const joinToken = (spaceId: string, participantId: string) => signJoinToken(key, spaceId, participantId);
  const getSpace = async (id: string) => (await api('GET', `/video/v1/spaces/${id}`)).body.data as Record<string, any>;
  /** For `until`: a probe every 300 ms, for up to `timeoutMs`. */
  const poll = (timeoutMs = 60_000) => ({ timeoutMs, intervalMs: 300 });
  const hooksOf = (id: string) => receivedWebhooks().filter((w) => bodyOf(w).object.id === id);
  const liveStream = () => mux.video.liveStreams.create({ playback_policies: ['public'], latency_mode: 'reduced', reconnect_window: 0 });

  it('creates a space with its broadcast, refuses a second one and bad input, and deletes only what is idle', async () => {
    const stream = await liveStream();
    const created = await api('POST', '/video/v1/spaces', { body: { passthrough: 'sp-1', broadcasts: [{ live_stream_id: stream.id, passthrough: 'bc-1' }] } });
    expect(created.status).toBe(201);
    const space = created.body.data;
    expect(space).toEqual({
      id: expect.any(String),
      created_at: expect.stringMatching(/^\d+$/),
      type: 'server',
      status: 'idle',
      passthrough: 'sp-1',
      broadcasts: [{ id: expect.any(String), live_stream_id: stream.id, status: 'idle', layout: 'gallery', resolution: '1920x1080', passthrough: 'bc-1' }],
    });
    expect(await getSpace(space.id)).toEqual(space);
    const broadcastId = space.broadcasts[0].id as string;
    expect((await api('GET', `/video/v1/spaces/${space.id}/broadcasts/${broadcastId}`)).body.data).toEqual(space.broadcasts[0]);

    const second = await api('POST', `/video/v1/spaces/${space.id}/broadcasts`, { body: { live_stream_id: stream.id } });
    expect({ status: second.status, body: second.body }).toEqual({
      status: 400,
      body: { error: { type: 'invalid_parameters', messages: ['broadcasts: a space can have at most 1 broadcast'] } },
    });
    const noStream = await api('POST', '/video/v1/spaces', { body: { broadcasts: [{ live_stream_id: 'no-such-stream' }] } });
    expect({ status: noStream.status, messages: noStream.body.error.messages }).toEqual({
      status: 400,
      messages: ['broadcasts[0].live_stream_id: no live stream no-such-stream'],
    });
    const started = await api('POST', `/video/v1/spaces/${space.id}/broadcasts/${broadcastId}/start`);
    expect({ status: started.status, body: started.body }).toEqual({
      status: 409,
      body: { error: { type: 'conflict', messages: ['A broadcast can start only while its space is active; the space is idle'] } },
    });
    expect(await getSpace(space.id)).toEqual(space);
    expect((await api('GET', '/video/v1/spaces?limit=100')).body.data.map((s: { id: string }) => s.id)).toContain(space.id);

    expect((await api('DELETE', `/video/v1/spaces/${space.id}/broadcasts/${broadcastId}`)).status).toBe(204);
    expect((await api('GET', `/video/v1/spaces/${space.id}/broadcasts/${broadcastId}`)).status).toBe(404);
    expect((await api('DELETE', `/video/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await api('GET', `/video/v1/spaces/${space.id}`)).status).toBe(404);

    await until('the webhooks', async () => hooksOf(space.id).length >= 2 && hooksOf(broadcastId).length >= 2, poll(20_000));
    expect(hooksOf(space.id).map((h) => [bodyOf(h).type, bodyOf(h).data.passthrough])).toEqual([
      ['video.space.created', 'sp-1'],
      ['video.space.deleted', 'sp-1'],
    ]);
    expect(hooksOf(broadcastId).map((h) => [bodyOf(h).type, bodyOf(h).data.passthrough, bodyOf(h).data.space_id])).toEqual([
      ['video.space.broadcast.created', 'bc-1', space.id],
      ['video.space.broadcast.deleted', 'bc-1', space.id],
    ]);
  });

  it('goes active when participants join, broadcasts each layout to a live stream, and goes idle when they leave', async () => {
    const first = await liveStream();
    const created = await api('POST', '/video/v1/spaces', {
      body: { passthrough: 'room', broadcasts: [{ live_stream_id: first.id, resolution: `${WIDTH}x${HEIGHT}`, background: backgroundUrl }] },
    });
    const spaceId = created.body.data.id as string;
    const participants = await SpaceParticipants.launch(spacesUrl());
    try {
      // the signaling socket is closed with 4401 and the join tokens' reason (services/spaces/src/realtime/README.md)
      const refused = await participants.join('not-a-token', RED, false).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(SpaceJoinRefused);
      expect(refused).toMatchObject({ code: 4401, reason: 'unauthorized: The join token is not a JWT' });
      expect((await getSpace(spaceId)).status).toBe('idle');

      const reloaded = await participants.join(await joinToken(spaceId, 'p1'), RED, true);
      const active = await until('the space active', async () => ((await getSpace(spaceId)).status === 'active' ? getSpace(spaceId) : undefined), poll());
      expect(active.active_session_id).toEqual(expect.any(String));
      // a reload of the only participant's page: its socket closes (a leave) and it is back within the empty grace
      // (SPACES_EMPTY_GRACE_SECONDS, 10 s), so the session goes on: the same active_session_id, and no idle (the webhooks below)
      await reloaded.close();
      const p1 = await participants.join(await joinToken(spaceId, 'p1'), RED, true);
      expect(await getSpace(spaceId)).toMatchObject({ status: 'active', active_session_id: active.active_session_id });
      const p2 = await participants.join(await joinToken(spaceId, 'p2'), GREEN, false);
      await participants.join(await joinToken(spaceId, 'p3'), BLUE, false, 120);

      // gallery: a grid in join order (galleryGrid), the empty cell and the bars beside p3's 4:3 picture show the background
      const grid = galleryGrid(3, WIDTH, HEIGHT);
      const centre = (i: number) => [grid.cells[i].x + grid.cells[i].width / 2, grid.cells[i].y + grid.cells[i].height / 2] as const;
      const p3Edge = [grid.cells[2].x + 20, grid.cells[2].y + grid.cells[2].height / 2] as const;
      // the grid's fourth cell, which nobody fills: beside p3, under p2
      const empty = [grid.cells[1].x + grid.cells[1].width / 2, grid.cells[2].y + grid.cells[2].height / 2] as const;
      const galleryLayout: Colour[] = ['red', 'green', 'blue', 'magenta', 'magenta'];
      const gallery = await broadcastFrames(
        spaceId,
        created.body.data.broadcasts[0].id,
        first,
        (file) => [...[0, 1, 2].map((i) => colourAt(file, ...centre(i))), colourAt(file, ...empty), colourAt(file, ...p3Edge)],
        { while: async (frames) => seen(frames, galleryLayout) },
      );
      expect(gallery.frames).toContainEqual(galleryLayout);
      expect(gallery.toneLevel).toBeGreaterThan(-40);

      // crop: the same grid, p3's picture filling its tile
      const crop = await relayout(spaceId, 'crop', (file) => [colourAt(file, ...centre(2)), colourAt(file, ...p3Edge)], {
        while: async (frames) => seen(frames, ['blue', 'blue']),
      });
      expect(crop.frames).toContainEqual(['blue', 'blue']);

      // active-speaker: the whole frame is whoever has the tone (p1), then p2 once the tone moves to it
      const speaker = await relayout(spaceId, 'active-speaker', (file) => [colourAt(file, WIDTH / 2, HEIGHT / 2), colourAt(file, 40, 40)], {
        while: async (frames) => {
          if (frames.some((f) => f[0] === 'red') && !frames.some((f) => f[0] === 'green')) {
            await SpaceParticipants.setTone(p1, false);
            await SpaceParticipants.setTone(p2, true);
          }
          return frames.some((f) => f[0] === 'green');
        },
      });
      expect(speaker.frames).toContainEqual(['red', 'red']);
      expect(speaker.frames).toContainEqual(['green', 'green']);
      expect(speaker.frames.findIndex((f) => f[0] === 'red')).toBeLessThan(speaker.frames.findIndex((f) => f[0] === 'green'));

      // everyone leaves: the space goes idle (after the empty grace), its broadcast stops and its live stream is completed
      await participants.close();
      await until('the space idle', async () => (await getSpace(spaceId)).status === 'idle', poll(45_000));
      expect((await getSpace(spaceId)).active_session_id).toBeUndefined();
      await until('its broadcast stopped', async () => (await getSpace(spaceId)).broadcasts[0].status === 'idle', poll(30_000));
      await until('the live stream idle', async () => (await mux.video.liveStreams.retrieve(speaker.streamId)).status === 'idle', poll(30_000));

      // the space's and the broadcast's events are keyed apart, so neither waits for the other on the way to us
      const delivered = (id: string, type: string) => hooksOf(id).some((h) => bodyOf(h).type === type);
      await until(
        'the idle webhooks',
        async () => delivered(spaceId, 'video.space.idle') && delivered(speaker.broadcastId, 'video.space.broadcast.idle'),
        poll(20_000),
      );
      const spaceHooks = hooksOf(spaceId).map(bodyOf);
      expect(spaceHooks.map((h) => h.type)).toEqual(['video.space.created', 'video.space.active', 'video.space.idle']);
      expect(spaceHooks[1].data).toMatchObject({ status: 'active', passthrough: 'room', active_session_id: active.active_session_id });
      expect(spaceHooks[2].data).toMatchObject({ status: 'idle', passthrough: 'room' });
      expect(hooksOf(speaker.broadcastId).map((h) => bodyOf(h).type)).toEqual([
        'video.space.broadcast.created',
        'video.space.broadcast.active',
        'video.space.broadcast.idle',
      ]);
    } finally {
      await participants.close().catch(() => undefined);
    }

    /** Replaces the space's broadcast with one of `layout` to a new live stream, and reads its frames. */
    async function relayout(id: string, layout: string, read: (file: string) => Colour[], options: FrameOptions = {}) {
      const space = await getSpace(id);
      const previous = space.broadcasts[0] as { id: string; live_stream_id: string };
      expect((await api('POST', `/video/v1/spaces/${id}/broadcasts/${previous.id}/stop`)).body).toEqual({ data: {} });
      // stop answers once the broadcast is idle and its stream completed
      expect((await api('GET', `/video/v1/spaces/${id}/broadcasts/${previous.id}`)).body.data.status).toBe('idle');
      await until('the previous stream idle', async () => (await mux.video.liveStreams.retrieve(previous.live_stream_id)).status === 'idle', poll(30_000));
      expect((await api('DELETE', `/video/v1/spaces/${id}/broadcasts/${previous.id}`)).status).toBe(204);
      const stream = await liveStream();
      const added = await api('POST', `/video/v1/spaces/${id}/broadcasts`, {
        body: { live_stream_id: stream.id, layout, resolution: `${WIDTH}x${HEIGHT}`, background: backgroundUrl },
      });
      expect(added.body.data).toMatchObject({ status: 'idle', layout });
      return broadcastFrames(id, added.body.data.id, stream, read, options);
    }
  });

  const seen = (frames: Colour[][], wanted: Colour[]) => frames.some((f) => f.join() === wanted.join());

  interface FrameOptions {
    /** Called with the frames read so far; true when enough were read (else reading goes on for a minute). */
    while?: (frames: Colour[][]) => Promise<boolean>;
  }

  /** Starts the broadcast, reads `read` off each new segment of the live stream, and the level of the 1 kHz tone. */
  async function broadcastFrames(
    spaceId: string,
    broadcastId: string,
    stream: { id: string; playback_ids?: Array<{ id: string }> },
    read: (file: string) => Colour[],
    options: FrameOptions = {},
  ) {
    const started = await api('POST', `/video/v1/spaces/${spaceId}/broadcasts/${broadcastId}/start`);
    expect({ status: started.status, body: started.body }).toEqual({ status: 200, body: { data: {} } });
    expect((await api('GET', `/video/v1/spaces/${spaceId}/broadcasts/${broadcastId}`)).body.data.status).toBe('active');
    await until('the live stream active', async () => (await mux.video.liveStreams.retrieve(stream.id)).status === 'active', poll());
    const segments = new LiveSegments(stream.playback_ids![0].id, dir);
    const frames: Colour[][] = [];
    let toneLevel = -200;
    const enough = options.while ?? (async () => false);
    const deadline = Date.now() + 60_000;
    while (!(await enough(frames)) && Date.now() < deadline) {
      for (const file of await segments.next()) {
        frames.push(read(file));
        toneLevel = Math.max(toneLevel, bandLevel(file, 1000));
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    return { frames, toneLevel, streamId: stream.id, broadcastId };
  }
});
