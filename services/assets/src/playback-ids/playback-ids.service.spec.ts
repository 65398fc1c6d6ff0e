import { ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';

describe('PlaybackIdsService', () => {
  it('adds a playback id after the existing ones, moves updated_at and emits video.asset.updated with the asset', async () => {
    const f = assetsFixture();
    const { asset } = f.stored({}, ['public']);
    const created = await f.playback.create({ asset_id: asset.id, policy: 'signed' });

    expect(created).toEqual({ id: expect.stringMatching(/^[0-9A-Za-z]{32}$/), policy: 'signed' });
    const got = await f.service.get(asset.id);
    expect(got.playback_ids).toEqual([{ id: `${asset.id}-pb0`, policy: 'public' }, created]);
    const row = f.assets.rows.get(asset.id)!;
    expect(got.updated_at).toBe(Number(unixSeconds(row.updatedAt!)));
    expect(f.events).toEqual([
      {
        type: 'video.asset.updated',
        object: { type: 'asset', id: asset.id },
        data: expect.objectContaining({ id: asset.id, updated_at: unixSeconds(row.updatedAt!), playback_ids: got.playback_ids }),
      },
    ]);
  });

  it.each([
    [{ policy: 'drm' }, ErrorCode.INVALID_PARAMETERS, ['policy: must be one of "public", "signed"']],
    [{ policy: '' }, ErrorCode.INVALID_PARAMETERS, ['policy: must be one of "public", "signed"']],
    [{ asset_id: 'nope' }, ErrorCode.NOT_FOUND, ['Asset not found']],
  ])('refuses to create with %j, emitting nothing', async (fields, code, messages) => {
    const f = assetsFixture();
    const { asset } = f.stored();
    const error = await rejection(f.playback.create({ asset_id: asset.id, policy: 'public', ...fields }));
    expect([error.code, error.messages]).toEqual([code, messages]);
    expect(f.playbackIds.rows).toEqual([]);
    expect(f.events).toEqual([]);
  });

  it('gets a playback id only through its own asset', async () => {
    const f = assetsFixture();
    const { asset, playbackIds } = f.stored({}, ['signed']);
    f.stored({ id: 'other' });
    expect(await f.playback.get({ asset_id: asset.id, playback_id: playbackIds[0].id })).toEqual({ id: playbackIds[0].id, policy: 'signed' });
    const elsewhere = await rejection(f.playback.get({ asset_id: 'other', playback_id: playbackIds[0].id }));
    expect([elsewhere.code, elsewhere.messages]).toEqual([ErrorCode.NOT_FOUND, ['Playback ID not found']]);
    const noAsset = await rejection(f.playback.get({ asset_id: 'nope', playback_id: playbackIds[0].id }));
    expect([noAsset.code, noAsset.messages]).toEqual([ErrorCode.NOT_FOUND, ['Asset not found']]);
  });

  it('deletes a playback id: the lookup fails at once and video.asset.updated shows the asset without it', async () => {
    const f = assetsFixture();
    const { asset, playbackIds } = f.stored({}, ['public', 'signed']);
    await f.playback.delete({ asset_id: asset.id, playback_id: playbackIds[0].id });

    expect((await rejection(f.playback.lookup(playbackIds[0].id))).messages).toEqual(['Playback ID not found']);
    expect((await f.service.get(asset.id)).playback_ids).toEqual([{ id: playbackIds[1].id, policy: 'signed' }]);
    expect(f.events).toHaveLength(1);
    expect(f.events[0]).toMatchObject({ type: 'video.asset.updated', data: { playback_ids: [{ id: playbackIds[1].id, policy: 'signed' }] } });

    const again = await rejection(f.playback.delete({ asset_id: asset.id, playback_id: playbackIds[0].id }));
    expect([again.code, again.messages]).toEqual([ErrorCode.NOT_FOUND, ['Playback ID not found']]);
    const wrongAsset = await rejection(f.playback.delete({ asset_id: 'nope', playback_id: playbackIds[1].id }));
    expect(wrongAsset.messages).toEqual(['Asset not found']);
    expect(f.events).toHaveLength(1);
  });

  it('the last playback id removed leaves playback_ids out of the event data', async () => {
    const f = assetsFixture();
    const { asset, playbackIds } = f.stored({}, ['public']);
    await f.playback.delete({ asset_id: asset.id, playback_id: playbackIds[0].id });
    expect(f.events[0].data).not.toHaveProperty('playback_ids');
  });

  it('looks a playback id up to its asset, with the policy and the asset’s status', async () => {
    const f = assetsFixture();
    const { asset, playbackIds } = f.stored({ status: 'ready' }, ['signed']);
    expect(await f.playback.lookup(playbackIds[0].id)).toEqual({
      id: playbackIds[0].id,
      policy: 'signed',
      object: { type: 'asset', id: asset.id },
      status: 'ready',
      renditions: [],
    });
    const unknown = await rejection(f.playback.lookup('nope'));
    expect([unknown.code, unknown.messages]).toEqual([ErrorCode.NOT_FOUND, ['Playback ID not found']]);
  });

  it('gives the playback host the asset’s thumbnail_time when set and its duration once known', async () => {
    const f = assetsFixture();
    const ready = f.stored({ status: 'ready', duration: 6.006, thumbnailTime: 2.5 }, ['public']);
    expect(await f.playback.lookup(ready.playbackIds[0].id)).toEqual({
      id: ready.playbackIds[0].id,
      policy: 'public',
      object: { type: 'asset', id: ready.asset.id },
      status: 'ready',
      renditions: [],
      thumbnail_time: 2.5,
      duration: 6.006,
    });
    // stored as given while the duration was unknown: the host clamps it
    const beyond = f.stored({ status: 'ready', duration: 4, thumbnailTime: 10 }, ['public']);
    expect(await f.playback.lookup(beyond.playbackIds[0].id)).toMatchObject({ thumbnail_time: 10, duration: 4 });
    const zero = f.stored({ status: 'ready', duration: 4, thumbnailTime: 0 }, ['public']);
    expect(await f.playback.lookup(zero.playbackIds[0].id)).toMatchObject({ thumbnail_time: 0 });
    const preparing = f.stored({ status: 'preparing' }, ['public']);
    const owner = await f.playback.lookup(preparing.playbackIds[0].id);
    expect(owner).not.toHaveProperty('thumbnail_time');
    expect(owner).not.toHaveProperty('duration');
  });

  it('tells the playback host that a live stream’s recording under way is live (it plays while preparing)', async () => {
    const f = assetsFixture();
    const recording = f.stored({ status: 'preparing', ingestType: 'live_rtmp' }, ['public']);
    const recorded = f.stored({ status: 'ready', ingestType: 'live_srt' }, ['public']);
    const onDemand = f.stored({ status: 'preparing' }, ['public']);
    expect(await f.playback.lookup(recording.playbackIds[0].id)).toMatchObject({ status: 'preparing', is_live: true });
    expect(await f.playback.lookup(recorded.playbackIds[0].id)).not.toHaveProperty('is_live');
    expect(await f.playback.lookup(onDemand.playbackIds[0].id)).not.toHaveProperty('is_live');
  });
});
