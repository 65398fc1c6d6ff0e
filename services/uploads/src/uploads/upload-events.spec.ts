import { EVENT_TYPES, NewEvent, newEvent } from '@platform/events';
import { UploadEntity } from './upload.entity';
import { emitUploadEvent, UPLOAD_EVENTS } from './upload-events';

/** The data emitUploadEvent emits (checked against the registry, as UnitOfWork checks it). */
function toUploadEventData(u: UploadEntity, baseUrl: string): Record<string, unknown> {
  const events: NewEvent[] = [];
  emitUploadEvent((type, data) => void events.push(newEvent(type, data)), UPLOAD_EVENTS.created, u, baseUrl);
  expect(events.map((e) => e.object)).toEqual([{ type: 'upload', id: u.id }]);
  return events[0].data;
}

const upload = (fields: Partial<UploadEntity> = {}): UploadEntity => ({
  id: 'u1',
  status: 'waiting',
  timeout: 3600,
  corsOrigin: null,
  newAssetSettings: null,
  test: false,
  assetId: null,
  error: null,
  signature: 'sig',
  expiresAt: new Date(0),
  write: null,
  totalBytes: null,
  claimToken: null,
  claimUntil: null,
  completedAt: null,
  createdAt: new Date(0),
  updatedAt: null,
  ...fields,
});

describe('upload events', () => {
  it('are all in the platform’s catalogue, which the webhook dispatcher subscribes to', () => {
    for (const type of Object.values(UPLOAD_EVENTS)) expect(EVENT_TYPES).toContain(type);
  });

  it('carry the upload as the API shows it, without internals (signature apart from the url, write state, claim)', () => {
    expect(toUploadEventData(upload({ corsOrigin: '*', test: true }), 'https://up.example')).toEqual({
      id: 'u1',
      status: 'waiting',
      timeout: 3600,
      cors_origin: '*',
      url: 'https://up.example/upload/u1?signature=sig',
      test: true,
    });
    expect(toUploadEventData(upload({ status: 'errored', assetId: 'a1', error: { type: 'invalid_input', message: 'm' } }), 'b')).toMatchObject({
      status: 'errored',
      error: { type: 'invalid_input', message: 'm' },
    });
    expect(toUploadEventData(upload({ status: 'errored', assetId: 'a1' }), 'b').asset_id).toBeUndefined();
    expect(toUploadEventData(upload({ status: 'asset_created', assetId: 'a1' }), 'b').asset_id).toBe('a1');
  });

  it('echo new_asset_settings with the policies as playback_policies and no stored-file key', () => {
    const settings = {
      input: [{ object_key: 'uploads/u1/source', generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: ['public', 'signed'],
      passthrough: 'p',
      max_resolution_tier: '2160p',
    };
    expect(toUploadEventData(upload({ newAssetSettings: settings }), 'b').new_asset_settings).toEqual({
      input: [{}],
      playback_policies: ['public', 'signed'],
      passthrough: 'p',
      max_resolution_tier: '2160p',
    });
  });
});
