import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { readUntil } from '@platform/testing';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { api, platform, sdk } from './support/context';
import { ffprobe, FileServer, makeClip, Probe, serveFiles } from './support/media';

jest.setTimeout(240_000);

const seconds = (probe: Probe) => Number(probe.format.duration);

describe('on-demand assets from a URL (spec 2.1, 2.2, 4.2, 4.4)', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let standardSource: Probe;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-media-'));
    await makeClip(dir, 'standard', { seconds: 6, width: 1280, height: 720, fps: 30 });
    await makeClip(dir, 'nonstandard', { seconds: 3, width: 640, height: 360, fps: 25, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    await makeClip(dir, 'long', { seconds: 14, width: 320, height: 240, fps: 25 });
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'this is not a video\n'.repeat(100));
    // drill 1 of issue 12: the first 100 KB of a 90 s MP4 whose index comes first
    await makeClip(dir, 'full90', { seconds: 90, width: 1280, height: 720, fps: 30, faststart: true });
    fs.writeFileSync(path.join(dir, 'truncated.mp4'), fs.readFileSync(path.join(dir, 'full90.mp4')).subarray(0, 100_000));
    standardSource = await ffprobe(path.join(dir, 'standard.mp4'));
    files = await serveFiles(dir);
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('a standard H.264/AAC input', () => {
    let assetId: string;
    let playbackId: string;

    it('is created preparing, then becomes ready with the fields ffprobe reads in the source', async () => {
      const created = await mux.video.assets.create({
        inputs: [{ url: files.url('standard.mp4') }],
        playback_policies: ['public'],
        passthrough: 'e2e-standard',
      });
      expect(created.status).toBe('preparing');
      expect(created.passthrough).toBe('e2e-standard');
      expect(created.max_resolution_tier).toBe('1080p');
      expect(created.encoding_tier).toBe('smart');
      expect(created.created_at).toMatch(/^\d{10}$/);
      expect(created.playback_ids).toEqual([{ id: expect.any(String), policy: 'public' }]);
      assetId = created.id;
      playbackId = created.playback_ids![0].id;

      const asset = await settledAsset(mux, assetId);
      expect(asset.status).toBe('ready');
      expect(asset.duration).toBeCloseTo(seconds(standardSource), 1);
      expect(asset.aspect_ratio).toBe('16:9');
      expect(asset.resolution_tier).toBe('720p');
      expect(asset.max_stored_resolution).toBe('HD');
      expect(asset.max_stored_frame_rate).toBe(30);
      expect(asset.non_standard_input_reasons).toBeUndefined();
      expect(asset.errors).toBeUndefined();
      const video = asset.tracks!.find((t) => t.type === 'video');
      const audio = asset.tracks!.find((t) => t.type === 'audio');
      expect(video).toMatchObject({ max_width: 1280, max_height: 720, max_frame_rate: 30 });
      expect(video!.id).toEqual(expect.any(String));
      expect(audio).toMatchObject({ max_channels: 2, primary: true });
      expect(asset.tracks).toHaveLength(2);
    });

    it('reports input-info as ffprobe reads the source', async () => {
      const info = await mux.video.assets.retrieveInputInfo(assetId);
      expect(info).toHaveLength(1);
      expect(info[0].settings).toEqual({ url: files.url('standard.mp4') });
      expect(info[0].file!.container_format).toBe(standardSource.format.format_name);
      const video = info[0].file!.tracks!.find((t) => t.type === 'video');
      const audio = info[0].file!.tracks!.find((t) => t.type === 'audio');
      expect(video).toMatchObject({ width: 1280, height: 720, frame_rate: 30, encoding: 'h264' });
      expect(audio).toMatchObject({ encoding: 'aac', sample_rate: 48000 });
    });

    it('plays: master → variant → segment over HTTP, and ffprobe reads the stream', async () => {
      const masterUrl = streamUrl(`${playbackId}.m3u8`);
      const master = await fetch(masterUrl);
      expect(master.status).toBe(200);
      expect(master.headers.get('content-type')).toMatch(/^application\/(vnd\.apple\.mpegurl|x-mpegurl)/i);
      const masterText = await master.text();
      expect(masterText.startsWith('#EXTM3U')).toBe(true);
      expect(masterText).toContain('#EXT-X-STREAM-INF');

      const variantUrl = resolveUri(masterUrl, playlistUris(masterText)[0]);
      const variant = await fetch(variantUrl);
      expect(variant.status).toBe(200);
      const variantText = await variant.text();
      expect(variantText).toContain('#EXTINF');
      expect(variantText).toContain('#EXT-X-ENDLIST');

      const segmentUrl = resolveUri(variantUrl, playlistUris(variantText)[0]);
      const segment = await fetch(segmentUrl);
      expect(segment.status).toBe(200);
      expect(segment.headers.get('content-type')).toBe('video/mp2t');
      const bytes = Buffer.from(await segment.arrayBuffer());
      expect(Number(segment.headers.get('content-length'))).toBe(bytes.length);
      expect(bytes[0]).toBe(0x47); // MPEG-TS sync byte

      const ranged = await fetch(segmentUrl, { headers: { range: 'bytes=188-375' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 188-375/${bytes.length}`);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(188, 376));

      const head = await fetch(masterUrl, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');

      const segmentFile = path.join(dir, 'segment.ts');
      fs.writeFileSync(segmentFile, bytes);
      const segmentProbe = await ffprobe(segmentFile);
      expect(segmentProbe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);

      const played = await ffprobe(masterUrl);
      expect(played.format.format_name).toBe('hls');
      expect(Number(played.format.duration)).toBeCloseTo(seconds(standardSource), 0);
      const playedVideo = played.streams.find((s) => s.codec_type === 'video');
      expect(playedVideo?.codec_name).toBe('h264');
    });

    it('adds the lower renditions of the ladder after ready', async () => {
      const heights = await readUntil(
        async () => {
          const text = await (await fetch(streamUrl(`${playbackId}.m3u8`))).text();
          return [...text.matchAll(/RESOLUTION=\d+x(\d+)/g)].map((m) => Number(m[1]));
        },
        (h) => h.length > 1,
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      expect(heights.length).toBeGreaterThan(1);
      expect(Math.max(...heights)).toBe(720);
      expect(Math.min(...heights)).toBeLessThan(720);
    });

    it('updates passthrough, and an empty string clears it', async () => {
      const updated = await mux.video.assets.update(assetId, { passthrough: 'changed' });
      expect(updated.passthrough).toBe('changed');
      // Mux's asset has `updated_at` once updated (spec 2.1); the SDK's type does not list it.
      expect((updated as unknown as { updated_at?: string }).updated_at).toMatch(/^\d{10}$/);
      const cleared = await mux.video.assets.update(assetId, { passthrough: '' });
      expect(cleared.passthrough).toBeUndefined();
      expect((await mux.video.assets.retrieve(assetId)).passthrough).toBeUndefined();
    });

    it('sets thumbnail_time within the duration, refuses one beyond it, and unsets it', async () => {
      const updated = await mux.video.assets.update(assetId, { thumbnail_time: 2.5 });
      expect(updated).toMatchObject({ id: assetId, status: 'ready', thumbnail_time: 2.5 });
      expect((await mux.video.assets.retrieve(assetId)).thumbnail_time).toBe(2.5);

      const beyond = await api('PATCH', `/video/v1/assets/${assetId}`, { body: { thumbnail_time: 60 } });
      expect(beyond.status).toBe(400);
      expect(beyond.body).toEqual({
        error: { type: 'invalid_parameters', messages: [`thumbnail_time: must be within the asset's duration (${updated.duration} s)`] },
      });
      expect((await mux.video.assets.retrieve(assetId)).thumbnail_time).toBe(2.5);

      await mux.video.assets.deleteThumbnailTime(assetId); // 204, no body
      const unset = await mux.video.assets.retrieve(assetId);
      expect(unset.id).toBe(assetId);
      expect(unset).not.toHaveProperty('thumbnail_time');
      // unsetting again is a success that changes nothing
      const again = await api('DELETE', `/video/v1/assets/${assetId}/thumbnail-time`, { headers: { accept: '*/*' } });
      expect([again.status, again.body]).toEqual([204, undefined]);
      expect(await mux.video.assets.retrieve(assetId)).not.toHaveProperty('thumbnail_time');
    });

    it('manages playback ids and resolves them to their asset', async () => {
      const signed = await mux.video.assets.createPlaybackId(assetId, { policy: 'signed' });
      expect(signed).toEqual({ id: expect.any(String), policy: 'signed' });
      expect(await mux.video.assets.retrievePlaybackId(assetId, signed.id)).toEqual(signed);
      expect(await mux.video.playbackIds.retrieve(signed.id)).toEqual({ id: signed.id, policy: 'signed', object: { type: 'asset', id: assetId } });
      const asset = await mux.video.assets.retrieve(assetId);
      expect(asset.playback_ids).toEqual(expect.arrayContaining([{ id: playbackId, policy: 'public' }, signed]));

      const del = await api('DELETE', `/video/v1/assets/${assetId}/playback-ids/${signed.id}`);
      expect(del.status).toBe(204);
      const lookup = await api('GET', `/video/v1/playback-ids/${signed.id}`);
      expect(lookup.status).toBe(404);
      expect(lookup.body.error.type).toBe('not_found');
      expect((await fetch(streamUrl(`${signed.id}.m3u8`))).status).toBe(404);
    });

    it('lists assets with limit and page, and filters by upload_id', async () => {
      const page = await api('GET', '/video/v1/assets?limit=1&page=1');
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      const all = await api('GET', '/video/v1/assets?limit=100');
      expect(all.body.data.map((a: { id: string }) => a.id)).toContain(assetId);
      const none = await api('GET', '/video/v1/assets?upload_id=no-such-upload');
      expect(none.body).toEqual({ data: [] });
    });

    it('deletes the asset, its playback ids and every stored file', async () => {
      const del = await api('DELETE', `/video/v1/assets/${assetId}`);
      expect(del.status).toBe(204);
      const get = await api('GET', `/video/v1/assets/${assetId}`);
      expect(get.status).toBe(404);
      expect(get.headers.get('x-should-retry')).toBe('false');
      expect((await api('GET', `/video/v1/playback-ids/${playbackId}`)).status).toBe(404);
      expect((await fetch(streamUrl(`${playbackId}.m3u8`))).status).toBe(404);
      if (platform.mode === 'embedded') {
        const stored = path.join(process.env.E2E_DATA_DIR!, 'objects', 'assets', assetId);
        expect(fs.existsSync(stored)).toBe(false);
      }
    });
  });

  it('ingests a non-standard input (MPEG-4 Part 2 + MP3 in Matroska) and names the reasons', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('nonstandard.mkv') }], playback_policies: ['public'] });
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('ready');
    expect(asset.non_standard_input_reasons).toMatchObject({ video_codec: 'mpeg4', audio_codec: 'mp3' });
    expect(asset.resolution_tier).toBe('720p');
    expect(asset.max_stored_frame_rate).toBe(25);
    const played = await ffprobe(streamUrl(`${asset.playback_ids![0].id}.m3u8`));
    expect(played.streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
    expect(played.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
  });

  it('cuts a test asset to 10 seconds', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('long.mp4') }], playback_policies: ['public'], test: true });
    expect(created.test).toBe(true);
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('ready');
    expect(asset.duration).toBeLessThanOrEqual(10.1);
    expect(asset.duration).toBeGreaterThan(9);
    const played = await ffprobe(streamUrl(`${asset.playback_ids![0].id}.m3u8`));
    expect(Number(played.format.duration)).toBeLessThanOrEqual(10.5);
  });

  it('ends errored when the URL cannot be downloaded', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('missing.mp4') }], playback_policies: ['public'] });
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('errored');
    expect(asset.errors?.type).toBe('invalid_input');
    expect(asset.errors?.messages?.join(' ')).toMatch(/download/i);
    // An errored asset answers 412 on its playback URL, like one still preparing (docs/decisions.md).
    const played = await fetch(streamUrl(`${asset.playback_ids![0].id}.m3u8`));
    expect(played.status).toBe(412);
    expect(await played.text()).toMatch(/not ready|errored/i);
  });

  it('ends errored when the file is not media', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('notes.txt') }] });
    expect(created.playback_ids ?? []).toEqual([]);
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('errored');
    expect(asset.errors?.type).toBe('invalid_input');
    expect(asset.errors?.messages?.length).toBeGreaterThan(0);
  });

  it('errors a truncated MP4 (the first 100 KB of a 90 s file) as incomplete, never making it ready', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('truncated.mp4') }], playback_policies: ['public'] });
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('errored'); // MarkErrored is refused on a ready asset: errored means it was never ready
    expect(asset.errors).toEqual({
      type: 'invalid_input',
      messages: [expect.stringMatching(/^The input file is incomplete: it declares 90\.0 seconds of media but only \d+\.\d seconds could be read/)],
    });
    expect(asset.duration).toBeUndefined();
    expect((await fetch(streamUrl(`${asset.playback_ids![0].id}.m3u8`))).status).toBe(412);
  });

  describe('outbound URL guard (drill 5 of issue 12; embedded default OUTBOUND_ALLOW=loopback)', () => {
    const assetCount = async () => ((await api('GET', '/video/v1/assets?limit=100')).body as { data: unknown[] }).data.length;

    it('refuses a cloud metadata URL at create with a 400 naming the field, and creates nothing', async () => {
      const before = await assetCount();
      const error = await mux.video.assets.create({ inputs: [{ url: 'http://169.254.169.254/latest/meta-data/' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Mux.BadRequestError);
      expect((error as InstanceType<typeof Mux.BadRequestError>).error).toEqual({
        error: {
          type: 'invalid_parameters',
          messages: ['inputs[0].url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to'],
        },
      });
      expect(await assetCount()).toBe(before);
    });

    it('errors an asset whose allowed URL redirects to a refused address, and never requests that address', async () => {
      const redirector = http.createServer((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end());
      await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/video.mp4`;
        const created = await mux.video.assets.create({ inputs: [{ url }], playback_policies: ['public'] });
        const asset = await settledAsset(mux, created.id);
        expect(asset.status).toBe('errored');
        expect(asset.errors).toEqual({
          type: 'invalid_input',
          messages: ['Unable to download input file: 169.254.169.254 is a cloud metadata address, which this platform does not connect to'],
        });
      } finally {
        redirector.closeAllConnections();
        await new Promise((r) => redirector.close(r));
      }
    });
  });

  it('rejects bad settings with a 400 error body and creates nothing', async () => {
    const before = (await api('GET', '/video/v1/assets?limit=100')).body.data.length;
    const cases: unknown[] = [
      {},
      { inputs: [{ url: 'ftp://example.com/a.mp4' }] },
      { inputs: [{ url: files.url('standard.mp4') }], playback_policies: ['everyone'] },
      { inputs: [{ url: files.url('standard.mp4') }], passthrough: 'x'.repeat(256) },
      { inputs: [{ url: files.url('standard.mp4') }], max_resolution_tier: '720p' },
    ];
    for (const body of cases) {
      const res = await api('POST', '/video/v1/assets', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_parameters');
      expect(res.body.error.messages.length).toBeGreaterThan(0);
      expect(res.headers.get('x-should-retry')).toBe('false');
    }
    expect((await api('GET', '/video/v1/assets?limit=100')).body.data.length).toBe(before);
  });
});
