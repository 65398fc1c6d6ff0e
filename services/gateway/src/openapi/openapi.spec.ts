import { TestGateway } from '../testing/test-gateway';

describe('GET /openapi.json (generated from the controllers and their zod schemas)', () => {
  let gw: TestGateway;
  let doc: any;
  beforeAll(async () => {
    gw = await TestGateway.start();
    const res = await gw.request('GET', '/openapi.json', { auth: null });
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => gw.stop());

  it('is OpenAPI 3 with HTTP Basic security on the API and none on /healthz', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.accessToken).toEqual({ type: 'http', scheme: 'basic' });
    expect(doc.security).toEqual([{ accessToken: [] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/openapi.json']).toBeUndefined();
  });

  it('lists the signing-key routes, the /video/v1 duplicates marked deprecated', () => {
    expect(Object.keys(doc.paths['/system/v1/signing-keys']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/system/v1/signing-keys/{SIGNING_KEY_ID}']).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/video/v1/signing-keys'].post.deprecated).toBe(true);
    expect(doc.paths['/video/v1/signing-keys/{SIGNING_KEY_ID}'].delete.deprecated).toBe(true);
    expect(doc.paths['/system/v1/signing-keys'].post.deprecated).toBeUndefined();
    const created = doc.paths['/system/v1/signing-keys'].post.responses['201'].content['application/json'].schema;
    expect(created.properties.data.required.sort()).toEqual(['created_at', 'id', 'private_key']);
    const operationIds = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('documents request bodies with the schemas the routes validate with', () => {
    const create = doc.paths['/video/v1/playback-restrictions'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(['referrer']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.referrer.properties.allowed_domains).toMatchObject({ type: 'array', maxItems: 10, items: { type: 'string' } });
    expect(create.properties.referrer.properties.allow_no_referrer).toMatchObject({ type: 'boolean', default: false });
    expect(create.properties.user_agent).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { allow_no_user_agent: { type: 'boolean', default: true }, allow_high_risk_user_agent: { type: 'boolean', default: true } },
    });
    const referrer = doc.paths['/video/v1/playback-restrictions/{PLAYBACK_RESTRICTION_ID}/referrer'].put.requestBody.content['application/json'].schema;
    expect(referrer.required).toEqual(['allowed_domains']);
    const userAgentPut = doc.paths['/video/v1/playback-restrictions/{PLAYBACK_RESTRICTION_ID}/user_agent'].put;
    const userAgent = userAgentPut.requestBody.content['application/json'].schema;
    expect(userAgent.required).toBeUndefined();
    expect(userAgent.additionalProperties).toBe(false);
    expect(Object.keys(userAgent.properties).sort()).toEqual(['allow_high_risk_user_agent', 'allow_no_user_agent']);
    const restriction = userAgentPut.responses['200'].content['application/json'].schema.properties.data;
    expect(restriction.required.sort()).toEqual(['created_at', 'id', 'referrer', 'updated_at', 'user_agent']);
    expect(restriction.properties.user_agent.required.sort()).toEqual(['allow_high_risk_user_agent', 'allow_no_user_agent']);
    const vocabulary = doc.paths['/video/v1/transcription-vocabularies'].post.requestBody.content['application/json'].schema;
    expect(vocabulary.required).toEqual(['phrases']);
    expect(vocabulary.properties.phrases).toMatchObject({ type: 'array', minItems: 1, maxItems: 1000 });
    expect(vocabulary.properties.passthrough).toMatchObject({ type: 'string', maxLength: 255 });
    expect(doc.paths['/video/v1/transcription-vocabularies/{TRANSCRIPTION_VOCABULARY_ID}'].put.requestBody).toBeDefined();
  });

  it('documents paging parameters with their ranges and defaults (a limit above the list’s maximum is clamped, not refused)', () => {
    const params = doc.paths['/video/v1/transcription-vocabularies'].get.parameters;
    const limit = params.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema.maximum).toBe(Number.MAX_SAFE_INTEGER);
    expect(limit.schema.description).toBe('Items per page, default 10; a larger value than 10 is taken as 10');
    expect(params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, default: 10 }) }),
        expect.objectContaining({ name: 'page', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, default: 1 }) }),
      ]),
    );
    const restrictionList = doc.paths['/video/v1/playback-restrictions'].get.responses['200'].content['application/json'].schema;
    expect(restrictionList.required.sort()).toEqual(['data', 'limit', 'page', 'total_row_count']);
  });

  it('gives every operation the one error body', () => {
    const error = doc.paths['/video/v1/playback-restrictions'].post.responses.default.content['application/json'].schema;
    expect(error.properties.error.properties.type.enum).toContain('invalid_parameters');
    expect(doc.paths['/video/v1/spaces'].get.responses['200']).toBeDefined();
    expect(doc.paths['/video/v1/web-inputs/{WEB_INPUT_ID}/launch'].put.responses['200']).toBeDefined();
    expect(doc.paths['/video/v1/assets/{ASSET_ID}/mp4-support'].put.responses['501']).toBeUndefined();
    expect(doc.paths['/video/v1/assets/{ASSET_ID}/tracks'].post.responses['201']).toBeDefined();
    expect(doc.paths['/video/v1/assets/{ASSET_ID}/static-renditions'].post.responses['201']).toBeDefined();
    expect(doc.paths['/video/v1/spaces'].post.responses['201']).toBeDefined();
    expect(doc.paths['/video/v1/spaces/{SPACE_ID}/broadcasts/{BROADCAST_ID}/start'].post.responses['200']).toBeDefined();
    expect(doc.paths['/video/v1/live-streams'].post.responses['201']).toBeDefined();
    expect(doc.paths['/data/v1/metrics/{METRIC_ID}/breakdown'].get).toBeDefined();
  });

  it('documents the asset and playback-id routes from their schemas', () => {
    expect(Object.keys(doc.paths['/video/v1/assets']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/video/v1/assets/{ASSET_ID}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.paths['/video/v1/assets/{ASSET_ID}/playback-ids/{PLAYBACK_ID}']).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/video/v1/assets/{ASSET_ID}/input-info'].get.responses['200']).toBeDefined();
    expect(doc.paths['/video/v1/assets'].post.responses['501'].description).toMatch(/^not_implemented: /);
    expect(doc.paths['/video/v1/assets/{ASSET_ID}'].get.responses['501']).toBeUndefined();
    expect(Object.keys(doc.paths['/video/v1/assets/{ASSET_ID}/thumbnail-time'])).toEqual(['delete']);
    expect(doc.paths['/video/v1/assets/{ASSET_ID}/thumbnail-time'].delete.responses['204']).toBeDefined();
    const update = doc.paths['/video/v1/assets/{ASSET_ID}'].patch.requestBody.content['application/json'].schema;
    expect(update.properties.thumbnail_time).toMatchObject({ type: 'number', minimum: 0, maximum: 43200 });

    const create = doc.paths['/video/v1/assets'].post.requestBody.content['application/json'].schema;
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.passthrough).toMatchObject({ type: 'string', maxLength: 255 });
    expect(create.properties.max_resolution_tier.enum).toEqual(['1080p', '1440p', '2160p']);
    expect(create.properties.video_quality.enum).toEqual(['basic', 'plus', 'premium']);
    // an array of inputs or the URL shortcut; one policy or an array of them
    expect(create.properties.input.anyOf.map((s: any) => s.type).sort()).toEqual(['array', 'string']);
    expect(create.properties.playback_policy.anyOf.map((s: any) => s.type).sort()).toEqual(['array', 'string']);
    expect(create.properties.inputs).toBeDefined();
    expect(create.properties.playback_policies).toBeDefined();

    const asset = doc.paths['/video/v1/assets'].post.responses['201'].content['application/json'].schema.properties.data;
    expect(asset.required.sort()).toEqual(
      ['created_at', 'encoding_tier', 'id', 'ingest_type', 'master_access', 'max_resolution_tier', 'mp4_support', 'progress', 'status', 'video_quality'].sort(),
    );
    expect(asset.properties.status.enum).toEqual(['preparing', 'ready', 'errored']);
    expect(asset.properties.thumbnail_time.type).toBe('number');
    const list = doc.paths['/video/v1/assets'].get;
    expect(list.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'limit', 'live_stream_id', 'page', 'upload_id']);
    const lookup = doc.paths['/video/v1/playback-ids/{PLAYBACK_ID}'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(lookup.required.sort()).toEqual(['id', 'object', 'policy']);
    expect(lookup.properties.object.properties.type.enum).toEqual(['asset', 'live_stream']);
  });

  it('says what validation enforces: patterns, NUL-free strings, optional bodies, cross-field rules (the fuzzer relies on it)', () => {
    const body = (path: string, method: string) => doc.paths[path][method].requestBody;
    const create = body('/video/v1/assets', 'post').content['application/json'].schema;
    // a string given where one is taken is NUL-free; a pattern of its own excludes NUL already
    expect(create.properties.passthrough.pattern).toBe('^[^\\u0000]*$');
    expect(new RegExp(create.properties.input.anyOf.find((s: any) => s.type === 'string').pattern).test('https://example.com/a.mp4')).toBe(true);
    expect(create.allOf).toEqual(
      expect.arrayContaining([{ not: { required: ['input', 'inputs'] } }, { anyOf: [{ required: ['input'] }, { required: ['inputs'] }] }]),
    );
    expect(body('/video/v1/assets', 'post').required).toBe(true);
    // every field of a live stream is optional: a request without a body is `{}`
    expect(body('/video/v1/live-streams', 'post').required).toBe(false);
    expect(body('/video/v1/assets/{ASSET_ID}', 'patch').content['application/json'].schema.minProperties).toBe(1);
    const params = doc.paths['/video/v1/assets/{ASSET_ID}'].get.parameters;
    expect(params.find((p: any) => p.name === 'ASSET_ID').schema.pattern).toBe('^[^\\u0000]*$');
    const restriction = body('/video/v1/playback-restrictions', 'post').content['application/json'].schema;
    expect(restriction.properties.referrer.properties.allowed_domains.items).toMatchObject({ maxLength: 253, pattern: expect.stringContaining('[A-Za-z0-9]') });
    const target = body('/video/v1/live-streams/{LIVE_STREAM_ID}/simulcast-targets', 'post').content['application/json'].schema;
    expect(new RegExp(target.properties.url.pattern).test('rtmps://live.example.com:443/app')).toBe(true);
  });
});
