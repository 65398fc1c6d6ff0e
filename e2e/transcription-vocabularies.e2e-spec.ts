import { api, sdk } from './support/context';

describe('transcription vocabularies (spec 2.8, 4.8)', () => {
  const mux = sdk();

  it('creates, reads, replaces and deletes', async () => {
    const created = await mux.video.transcriptionVocabularies.create({ name: 'Names', phrases: ['Mux', 'HLS'], passthrough: 'p1' });
    expect(created).toMatchObject({ name: 'Names', phrases: ['Mux', 'HLS'], passthrough: 'p1' });
    expect(created.created_at).toMatch(/^\d+$/);
    expect(await mux.video.transcriptionVocabularies.retrieve(created.id)).toEqual(created);

    const updated = await mux.video.transcriptionVocabularies.update(created.id, { phrases: ['Kafka'], name: 'Renamed' });
    expect(updated).toMatchObject({ id: created.id, name: 'Renamed', phrases: ['Kafka'] });
    expect(updated.passthrough).toBeUndefined();
    expect(updated.updated_at).toMatch(/^\d+$/);

    await mux.video.transcriptionVocabularies.delete(created.id);
    expect((await api('GET', `/video/v1/transcription-vocabularies/${created.id}`)).status).toBe(404);
  });

  it('pages at most 10 at a time', async () => {
    for (let i = 0; i < 11; i++) await mux.video.transcriptionVocabularies.create({ phrases: [`phrase ${i}`] });
    const first = await api('GET', '/video/v1/transcription-vocabularies');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(10);
    // asking for more gets the most the API gives: 10 (issue 12)
    const tooBig = await api('GET', '/video/v1/transcription-vocabularies?limit=11');
    expect(tooBig.status).toBe(200);
    expect(tooBig.body.data).toHaveLength(10);
    const all = [];
    for await (const v of mux.video.transcriptionVocabularies.list()) all.push(v.id);
    expect(all.length).toBeGreaterThanOrEqual(11);
    expect(new Set(all).size).toBe(all.length);
  });

  it('rejects bad bodies with messages naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'no phrases' }, /phrases/],
      [{ phrases: 'not-an-array' }, /phrases/],
      [{ phrases: ['ok'], passthrough: 'x'.repeat(256) }, /passthrough/],
      [{ phrases: ['ok'], name: 42 }, /name/],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/video/v1/transcription-vocabularies', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_parameters');
      expect(res.body.error.messages.join(' ')).toMatch(field);
    }
  });
});
