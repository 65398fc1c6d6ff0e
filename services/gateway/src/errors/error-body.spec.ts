import http from 'node:http';
import { GrpcStatus } from '@platform/errors';
import { grpcError, TestGateway } from '../testing/test-gateway';

describe('the error body over HTTP (one shape for every status)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start({ MAX_BODY_BYTES: '1024' });
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it.each([
    [GrpcStatus.INVALID_ARGUMENT, 400, 'invalid_parameters', ['referrer.allowed_domains[0]: bad'], 'false'],
    [GrpcStatus.NOT_FOUND, 404, 'not_found', ['Signing key not found'], 'false'],
    [GrpcStatus.FAILED_PRECONDITION, 409, 'conflict', ['Upload is not waiting'], 'false'],
    [GrpcStatus.PERMISSION_DENIED, 403, 'forbidden', ['nope'], 'false'],
    [GrpcStatus.UNAUTHENTICATED, 401, 'unauthorized', ['who?'], 'false'],
    [GrpcStatus.UNIMPLEMENTED, 501, 'not_implemented', ['Later'], 'false'],
    [GrpcStatus.RESOURCE_EXHAUSTED, 429, 'too_many_requests', ['slow down'], null],
    [GrpcStatus.UNAVAILABLE, 503, 'service_unavailable', ['A service is temporarily unavailable; try again later'], null],
    [GrpcStatus.INTERNAL, 500, 'internal_error', ['Internal error'], null],
  ])('gRPC %s → %s %s', async (code, status, type, messages, shouldRetry) => {
    gw.signingKeys.getSigningKey.mockReturnValue(grpcError(code, code === GrpcStatus.INTERNAL ? ['relation "x" does not exist at db:5432'] : messages));
    const res = await gw.request('GET', '/system/v1/signing-keys/k');
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { type, messages } });
    expect(res.headers.get('x-should-retry')).toBe(shouldRetry);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('never shows the internals of a 500 or 503', async () => {
    gw.signingKeys.getSigningKey.mockReturnValue(
      grpcError(GrpcStatus.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:50054'),
    );
    const res = await gw.request('GET', '/system/v1/signing-keys/k');
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    gw.signingKeys.getSigningKey.mockImplementation(() => {
      throw new TypeError('Cannot read properties of undefined (reading "secret_column")');
    });
    const crash = await gw.request('GET', '/system/v1/signing-keys/k');
    expect(crash.status).toBe(500);
    expect(crash.body).toEqual({ error: { type: 'internal_error', messages: ['Internal error'] } });
  });

  it('answers an unknown route with the 404 body', async () => {
    const res = await gw.request('GET', '/video/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', messages: ['No route GET /video/v1/no-such-thing'] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('keeps idle keep-alive connections 65 s and says so (clients close first: no reset under load)', async () => {
    const res = await fetch(`${gw.baseUrl}/healthz`);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
    expect(gw.app.getHttpServer().headersTimeout).toBe(66_000);
  });

  describe('a method a documented path does not take', () => {
    /** fetch() refuses TRACE, so this one goes through node:http. */
    const rawRequest = (method: string, path: string) =>
      new Promise<{ status: number; allow: string | undefined; body: unknown }>((resolve, reject) => {
        const req = http.request(
          `${gw.baseUrl}${path}`,
          { method, headers: { authorization: `Basic ${Buffer.from(`${gw.admin.id}:${gw.admin.secret}`).toString('base64')}` } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body: JSON.parse(text) as unknown }));
          },
        );
        req.on('error', reject);
        req.end();
      });

    it('answers TRACE with 405, the methods it takes in Allow, and the error body', async () => {
      const res = await rawRequest('TRACE', '/video/v1/assets');
      expect(res.status).toBe(405);
      expect(res.allow).toBe('GET, POST, HEAD');
      expect(res.body).toEqual({ error: { type: 'method_not_allowed', messages: ['TRACE is not allowed on /video/v1/assets; allowed: GET, POST, HEAD'] } });
    });

    it('answers 405 for a path with parameters too, and 404 still for a path that does not exist', async () => {
      const res = await gw.request('POST', '/video/v1/assets/abc123');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, DELETE, PATCH, HEAD');
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect((await gw.request('DELETE', '/video/v1/nothing-here')).status).toBe(404);
    });
  });

  describe('NUL characters (Postgres text cannot hold them)', () => {
    it.each(['/video/v1/assets/%00', '/video/v1/live-streams?stream_key=a%00b', '/system/v1/signing-keys/k%00'])(
      'refuses %s with 400 before any service is asked',
      async (path) => {
        const res = await gw.request('GET', path);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['the URL: must not contain a NUL character (\\u0000)'] } });
        expect(gw.assets.getAsset).not.toHaveBeenCalled();
        expect(gw.signingKeys.getSigningKey).not.toHaveBeenCalled();
      },
    );

    it.each([{ passthrough: 'a\u0000b' }, { 'key\u0000': 1 }, { input: [{ url: 'https://x/\u0000' }] }])(
      'refuses a body holding one (%j) with 400',
      async (body) => {
        const res = await gw.request('POST', '/video/v1/assets', { body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['body: must not contain a NUL character (\\u0000)'] } });
        expect(gw.assets.createAsset).not.toHaveBeenCalled();
      },
    );
  });

  describe('JSON bodies', () => {
    it('refuses malformed JSON with 400 naming the problem', async () => {
      const res = await gw.request('POST', '/video/v1/playback-restrictions', { rawBody: '{"referrer":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_parameters');
      expect(res.body.error.messages).toHaveLength(1);
      expect(res.body.error.messages[0]).toMatch(/^body: malformed JSON: .*JSON/);
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(gw.playbackRestrictions.createPlaybackRestriction).not.toHaveBeenCalled();
    });

    it('refuses a body that is not JSON by content type with 415', async () => {
      const res = await gw.request('POST', '/video/v1/transcription-vocabularies', {
        rawBody: 'phrases=a',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        error: { type: 'unsupported_media_type', messages: ['Content-Type must be application/json, got "application/x-www-form-urlencoded"'] },
      });
      expect(res.headers.get('x-should-retry')).toBe('false');
    });

    it('accepts application/json with a charset and +json types', async () => {
      const res = await gw.request('POST', '/video/v1/transcription-vocabularies', {
        rawBody: '{"phrases": 5}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.body.error.messages).toEqual(['phrases: must be an array, not a number']);
      const vendor = await gw.request('POST', '/video/v1/transcription-vocabularies', {
        rawBody: '{"phrases": 5}',
        headers: { 'content-type': 'application/vnd.api+json' },
      });
      expect(vendor.status).toBe(400);
    });

    it('refuses a body over MAX_BODY_BYTES with 413, by declared length and by counting', async () => {
      const big = JSON.stringify({ phrases: ['x'.repeat(2000)] });
      const declared = await gw.request('POST', '/video/v1/transcription-vocabularies', { rawBody: big, headers: { 'content-type': 'application/json' } });
      expect(declared.status).toBe(413);
      expect(declared.body).toEqual({ error: { type: 'payload_too_large', messages: ['The request body must be at most 1024 bytes'] } });
      expect(declared.headers.get('x-should-retry')).toBe('false');

      const chunks = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      const res = await fetch(`${gw.baseUrl}/video/v1/transcription-vocabularies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${gw.admin.id}:${gw.admin.secret}`).toString('base64')}` },
        body: chunks,
        duplex: 'half',
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: { type: 'payload_too_large', messages: ['The request body must be at most 1024 bytes'] } });
      expect(gw.vocabularies.createTranscriptionVocabulary).not.toHaveBeenCalled();
    });

    it('treats an empty POST body as {}', async () => {
      const res = await gw.request('POST', '/video/v1/transcription-vocabularies');
      expect(res.status).toBe(400);
      expect(res.body.error.messages).toEqual(['phrases: is required']);
      const withType = await gw.request('POST', '/video/v1/transcription-vocabularies', { rawBody: '', headers: { 'content-type': 'application/json' } });
      expect(withType.body.error.messages).toEqual(['phrases: is required']);
    });
  });
});
