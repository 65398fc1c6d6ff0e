import { reply, TestGateway } from '../testing/test-gateway';

const vocabulary = (extra: Record<string, unknown> = {}) => ({
  id: 'v1',
  phrases: ['Mux', 'HLS'],
  created_at: 1700000000,
  updated_at: 1700000100,
  ...extra,
});

describe('transcription vocabulary routes (spec 2.8, 4.8)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates: 201 with the service’s vocabulary and string timestamps', async () => {
    gw.vocabularies.createTranscriptionVocabulary.mockReturnValue(reply(vocabulary({ name: 'Names', passthrough: 'p1' })));
    const res = await gw.request('POST', '/video/v1/transcription-vocabularies', { body: { name: 'Names', phrases: ['Mux', 'HLS'], passthrough: 'p1' } });
    expect(gw.vocabularies.createTranscriptionVocabulary).toHaveBeenCalledWith({ id: '', name: 'Names', phrases: ['Mux', 'HLS'], passthrough: 'p1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { id: 'v1', name: 'Names', phrases: ['Mux', 'HLS'], passthrough: 'p1', created_at: '1700000000', updated_at: '1700000100' },
    });
  });

  it('leaves out name and passthrough when the vocabulary has none', async () => {
    gw.vocabularies.getTranscriptionVocabulary.mockReturnValue(reply(vocabulary()));
    const res = await gw.request('GET', '/video/v1/transcription-vocabularies/v1');
    expect(res.body).toEqual({ data: { id: 'v1', phrases: ['Mux', 'HLS'], created_at: '1700000000', updated_at: '1700000100' } });
  });

  it('replaces with PUT: omitted fields are sent as absent', async () => {
    gw.vocabularies.updateTranscriptionVocabulary.mockReturnValue(reply(vocabulary({ name: 'Renamed', phrases: ['Kafka'] })));
    const res = await gw.request('PUT', '/video/v1/transcription-vocabularies/v1', { body: { phrases: ['Kafka'], name: 'Renamed' } });
    expect(gw.vocabularies.updateTranscriptionVocabulary).toHaveBeenCalledWith({ id: 'v1', name: 'Renamed', phrases: ['Kafka'], passthrough: undefined });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 'v1', name: 'Renamed', phrases: ['Kafka'] });
    expect(res.body.data).not.toHaveProperty('passthrough');
  });

  it('lists 10 per page by default and clamps a larger limit to 10 (the most the API gives)', async () => {
    gw.vocabularies.listTranscriptionVocabularies.mockReturnValue(reply({ items: [vocabulary()] }));
    const res = await gw.request('GET', '/video/v1/transcription-vocabularies');
    expect(gw.vocabularies.listTranscriptionVocabularies).toHaveBeenCalledWith({ limit: 10, page: 1 });
    expect(res.body.data).toHaveLength(1);
    for (const asked of ['11', '50', String(Number.MAX_SAFE_INTEGER)]) {
      const more = await gw.request('GET', `/video/v1/transcription-vocabularies?limit=${asked}&page=2`);
      expect(more.status).toBe(200);
      expect(gw.vocabularies.listTranscriptionVocabularies).toHaveBeenLastCalledWith({ limit: 10, page: 2 });
    }
  });

  it('deletes with 204', async () => {
    gw.vocabularies.deleteTranscriptionVocabulary.mockReturnValue(reply({}));
    const res = await gw.request('DELETE', '/video/v1/transcription-vocabularies/v1');
    expect(res.status).toBe(204);
    expect(gw.vocabularies.deleteTranscriptionVocabulary).toHaveBeenCalledWith({ id: 'v1' });
  });

  it.each([
    ['no phrases', { name: 'no phrases' }, ['phrases: is required']],
    ['phrases not an array', { phrases: 'not-an-array' }, ['phrases: must be an array, not a string']],
    ['an empty phrase list', { phrases: [] }, ['phrases: must have at least 1 entry']],
    ['a blank phrase', { phrases: ['ok', '  '] }, ['phrases[1]: must hold a character other than white space']],
    ['a 33-character phrase', { phrases: ['x'.repeat(33)] }, ['phrases[0]: must be at most 32 characters']],
    ['1001 phrases', { phrases: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, ['phrases: must have at most 1000 entries']],
    ['a 256-character passthrough', { phrases: ['ok'], passthrough: 'x'.repeat(256) }, ['passthrough: must be at most 255 characters']],
    ['a number for name', { phrases: ['ok'], name: 42 }, ['name: must be a string, not a number']],
    ['an unknown field', { phrases: ['ok'], language: 'en' }, ['language: is not a known field']],
    [
      'several problems at once',
      { name: 1, passthrough: 2 },
      ['name: must be a string, not a number', 'phrases: is required', 'passthrough: must be a string, not a number'],
    ],
  ])('refuses %s with 400 naming the field', async (_label, body, messages) => {
    const res = await gw.request('POST', '/video/v1/transcription-vocabularies', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
    expect(gw.vocabularies.createTranscriptionVocabulary).not.toHaveBeenCalled();
  });

  it('accepts exactly 255 characters of passthrough', async () => {
    gw.vocabularies.createTranscriptionVocabulary.mockReturnValue(reply(vocabulary({ passthrough: 'x'.repeat(255) })));
    const res = await gw.request('POST', '/video/v1/transcription-vocabularies', { body: { phrases: ['ok'], passthrough: 'x'.repeat(255) } });
    expect(res.status).toBe(201);
  });
});
