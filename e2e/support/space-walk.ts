import Mux from '@mux/mux-node';
import { api } from './context';
import { ObjectStates } from './object-states';
import { signJoinToken, SpaceParticipants, spacesUrl } from './space-participants';

const gone = (body: Record<string, unknown> | undefined) => body === undefined;

/**
 * A space with a broadcast to a live stream of its own (all watched): a participant joins (active), the broadcast
 * starts (active; the compositor connects to the stream) and stops (idle; the stream completed), the participant
 * leaves (the space idle), then the broadcast, the space and the stream are deleted.
 */
export async function walkSpace(mux: Mux, states: ObjectStates): Promise<void> {
  const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
  states.watch('live', stream.id);
  const broadcasts = [{ live_stream_id: stream.id, resolution: '720x720', passthrough: 'events' }];
  const created = await api('POST', '/video/v1/spaces', { body: { passthrough: 'events', broadcasts } });
  if (created.status !== 201) throw new Error(`space create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = String(created.body.data.id);
  const broadcastId = String(created.body.data.broadcasts[0].id);
  states.watch('space', id);
  states.watch('broadcast', broadcastId, `/video/v1/spaces/${id}/broadcasts/${broadcastId}`);
  await states.until(id, Boolean);
  const key = (await mux.system.signingKeys.create()) as { id: string; private_key: string };
  const participants = await SpaceParticipants.launch(spacesUrl());
  try {
    await participants.join(await signJoinToken(key, id, 'walker'), [255, 0, 0], true);
    await states.until(id, (b) => b?.status === 'active', 30_000);
    await api('POST', `/video/v1/spaces/${id}/broadcasts/${broadcastId}/start`);
    await states.until(broadcastId, (b) => b?.status === 'active', 30_000);
    await states.until(stream.id, (b) => b?.status === 'active', 60_000);
    await api('POST', `/video/v1/spaces/${id}/broadcasts/${broadcastId}/stop`);
    await states.until(broadcastId, (b) => b?.status === 'idle', 30_000);
    await states.until(stream.id, (b) => b?.status === 'idle', 30_000);
  } finally {
    await participants.close();
  }
  await states.until(id, (b) => b?.status === 'idle', 30_000);
  await api('DELETE', `/video/v1/spaces/${id}/broadcasts/${broadcastId}`);
  await states.until(broadcastId, gone);
  // the space without it is the state its deleted event carries: seen by GET before the delete, not racing it
  await states.until(id, (b) => (b?.broadcasts as unknown[] | undefined)?.length === 0);
  await api('DELETE', `/video/v1/spaces/${id}`);
  await states.until(id, gone);
  await mux.system.signingKeys.delete(key.id);
  await mux.video.liveStreams.delete(stream.id);
  await states.until(stream.id, gone);
}
