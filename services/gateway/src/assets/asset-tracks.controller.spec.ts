import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const TRACK = { id: 't1', type: 'text', text_type: 'subtitles', text_source: 'uploaded', language_code: 'en', name: 'English', status: 'preparing' };

describe('asset tracks (spec 4.2)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  describe('POST /video/v1/assets/{id}/tracks', () => {
    it('adds a track: 201 with the Track, the body passed on as it came', async () => {
      gw.assets.createTrack.mockReturnValue(reply({ ...TRACK, closed_captions: true }));
      const body = { url: 'https://media.example/en.srt', type: 'text', text_type: 'subtitles', language_code: 'en', closed_captions: true, passthrough: 'p' };
      const res = await gw.request('POST', '/video/v1/assets/a1/tracks', { body });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ data: { ...TRACK, closed_captions: true } });
      expect(gw.assets.createTrack).toHaveBeenCalledWith({ asset_id: 'a1', ...body });
    });

    it.each<[string, unknown, string[]]>([
      ['no url', { type: 'text', language_code: 'en' }, ['url: is required']],
      [
        'a bad type and language',
        { url: 'https://x/a.srt', type: 'video', language_code: 'english!' },
        ['type: must be one of "text", "audio"', 'language_code: must be a BCP 47 language code such as "en" or "es-MX"'],
      ],
      ['an unknown field', { url: 'https://x/a.srt', type: 'text', language_code: 'en', extra: 1 }, ['extra: is not a known field']],
      [
        'a URL the platform refuses to fetch',
        { url: 'http://169.254.169.254/a.srt', type: 'text', language_code: 'en' },
        ['url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to'],
      ],
    ])('refuses %s with 400, calling nothing', async (_name, body, messages) => {
      const res = await gw.request('POST', '/video/v1/assets/a1/tracks', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
      expect(gw.assets.createTrack).not.toHaveBeenCalled();
    });

    it('answers the service’s refusals: 409 for an asset not ready, 404 for an unknown asset', async () => {
      gw.assets.createTrack.mockReturnValueOnce(grpcError(9, ['The asset is preparing: tracks can be added only once it is ready']));
      const early = await gw.request('POST', '/video/v1/assets/a1/tracks', { body: { url: 'https://x/a.srt', type: 'text', language_code: 'en' } });
      expect([early.status, early.body]).toEqual([
        409,
        { error: { type: 'conflict', messages: ['The asset is preparing: tracks can be added only once it is ready'] } },
      ]);
      gw.assets.createTrack.mockReturnValueOnce(grpcError(5, ['Asset not found']));
      expect((await gw.request('POST', '/video/v1/assets/nope/tracks', { body: { url: 'https://x/a.srt', type: 'text', language_code: 'en' } })).status).toBe(
        404,
      );
    });
  });

  describe('DELETE /video/v1/assets/{id}/tracks/{track_id}', () => {
    it('deletes: 204', async () => {
      gw.assets.deleteTrack.mockReturnValue(reply({}));
      const res = await gw.request('DELETE', '/video/v1/assets/a1/tracks/t1');
      expect(res.status).toBe(204);
      expect(gw.assets.deleteTrack).toHaveBeenCalledWith({ asset_id: 'a1', track_id: 't1' });
    });

    it('answers 400 with the service’s reason for a video or audio track', async () => {
      gw.assets.deleteTrack.mockReturnValue(grpcError(3, ['track v1: video tracks cannot be deleted; only text tracks can']));
      const res = await gw.request('DELETE', '/video/v1/assets/a1/tracks/v1');
      expect([res.status, res.body]).toEqual([
        400,
        { error: { type: 'invalid_parameters', messages: ['track v1: video tracks cannot be deleted; only text tracks can'] } },
      ]);
    });
  });

  describe('POST …/tracks/{audio track id}/generate-subtitles', () => {
    it('answers 201 with the new tracks, an array as Mux and its SDK have it', async () => {
      const generated = { ...TRACK, id: 'g1', text_source: 'generated_vod', name: 'English (generated)' };
      gw.assets.generateSubtitles.mockReturnValue(reply({ items: [generated] }));
      const res = await gw.request('POST', '/video/v1/assets/a1/tracks/a9/generate-subtitles', { body: { generated_subtitles: [{ language_code: 'en' }] } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ data: [generated] });
      expect(gw.assets.generateSubtitles).toHaveBeenCalledWith({ asset_id: 'a1', track_id: 'a9', generated_subtitles: [{ language_code: 'en' }] });
    });

    it('refuses an empty list or a language outside spec 2.2’s', async () => {
      const empty = await gw.request('POST', '/video/v1/assets/a1/tracks/a9/generate-subtitles', { body: { generated_subtitles: [] } });
      expect(empty.status).toBe(400);
      const bad = await gw.request('POST', '/video/v1/assets/a1/tracks/a9/generate-subtitles', { body: { generated_subtitles: [{ language_code: 'xx' }] } });
      expect(bad.status).toBe(400);
      expect(gw.assets.generateSubtitles).not.toHaveBeenCalled();
    });
  });
});
