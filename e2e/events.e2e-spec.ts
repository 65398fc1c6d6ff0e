import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENT_TYPES, topicOf } from '@platform/events';
import { freePort } from '@platform/testing';
import { api, platform, sdk } from './support/context';
import { Encoder, eventually, pushRtmp, receiveRtmp, RtmpReceiver } from './support/encoder';
import { compareWithStates, WebhookEvent, webhookEvent } from './support/event-shapes';
import { gatedTcpProxy, GatedFileServer, GatedProxy, serveGatedFiles } from './support/gates';
import { segmentsListed } from './support/live-playlists';
import { makeClip } from './support/media';
import { ObjectStates } from './support/object-states';
import { descendantPids } from './support/processes';
import {
  jobCount,
  jobsOf,
  kafkaLag,
  outboxEventIds,
  pendingDeliveries,
  processedCounts,
  processedIds,
  republishEverything,
  unpublishedRows,
} from './support/redelivery';
import { putBytes } from './support/uploads';
import { receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(300_000);

/**
 * Registered types no step below makes yet. `video.asset.warning` is emitted by the transcoder's
 * work on jobs that end without changing their asset (issue 12, defect 1); the step that causes one
 * joins this walk with that work, and the type leaves this list.
 */
const NOT_YET_MADE: readonly string[] = ['video.asset.warning'];

const countBy = (ids: string[]): Record<string, number> => ids.reduce<Record<string, number>>((n, id) => ((n[id] = (n[id] ?? 0) + 1), n), {});

/** Webhooks of the objects the walk made (track events: of its assets). */
function webhooksOf(states: ObjectStates): WebhookEvent[] {
  const ids = new Set(states.ids());
  return receivedWebhooks()
    .map(webhookEvent)
    .filter((e) => ids.has(e.object.id) || (e.type.startsWith('video.asset.track.') && ids.has(e.data.asset_id as string)));
}

async function webhooksUntil(states: ObjectStates, done: (events: WebhookEvent[]) => boolean, timeoutMs = 60_000): Promise<WebhookEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = webhooksOf(states);
    if (done(events) || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Kills the platform's speech recognizer once it runs (the generated_live_final pass of a recording just made ready). */
async function killRecognizerWhenItRuns(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pids = descendantPids(Number(process.env.E2E_PLATFORM_PID), 'recognize.py');
    if (pids.length > 0) {
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no speech recognizer ran for generated_live_final (is scripts/infra/speech.sh done?)');
}

/**
 * Every event type the platform emits, made by one walk through the API and ingest, each webhook's
 * `data` held against what `GET` of its object answered at that moment (the same mapper builds
 * both: @platform/api-shapes). Then every event is published again, to every consumer, and nothing
 * happens twice.
 */
describe('events', () => {
  const mux = sdk();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-events-'));
  const states = new ObjectStates();
  let files: GatedFileServer;
  let proxy: GatedProxy | undefined;
  let receiver: RtmpReceiver | undefined;
  let encoder: Encoder | undefined;

  beforeAll(async () => {
    await makeClip(dir, 'non-standard', { seconds: 2, width: 320, height: 240, fps: 25, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    await makeClip(dir, 'standard', { seconds: 2, width: 320, height: 240, fps: 25 });
    files = await serveGatedFiles(dir);
  });

  afterAll(async () => {
    await states.stop();
    await encoder?.stop();
    await receiver?.kill();
    await proxy?.close();
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends every registered event type, each webhook’s data the body GET answered for its object at that moment', async () => {
    // signing keys, playback restrictions, transcription vocabularies
    const key = await mux.system.signingKeys.create();
    states.watch('signing_key', key.id);
    await states.until(key.id, Boolean);
    await mux.system.signingKeys.delete(key.id);
    await states.until(key.id, (b) => b === undefined);

    const restriction = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: ['events.example'] },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
    states.watch('playback_restriction', restriction.id);
    await states.until(restriction.id, Boolean);
    await states.after(restriction.id, () =>
      mux.video.playbackRestrictions.updateReferrer(restriction.id, { allowed_domains: ['*'], allow_no_referrer: true }),
    );
    await states.after(restriction.id, () =>
      mux.video.playbackRestrictions.updateUserAgent(restriction.id, { allow_no_user_agent: false, allow_high_risk_user_agent: true }),
    );
    await mux.video.playbackRestrictions.delete(restriction.id);
    await states.until(restriction.id, (b) => b === undefined);

    const vocabulary = await mux.video.transcriptionVocabularies.create({ name: 'events', phrases: ['webhook'] });
    states.watch('transcription_vocabulary', vocabulary.id);
    await states.until(vocabulary.id, Boolean);
    await states.after(vocabulary.id, () =>
      mux.video.transcriptionVocabularies.update(vocabulary.id, { name: 'events', phrases: ['webhook', 'registry'], passthrough: 'p' }),
    );

    // an asset from a URL whose host answers when the test lets it: created (seen), then a
    // non-standard input (tracks, reasons; seen while the ladder encodes), ready; then updates and delete
    let gate = files.hold('non-standard.mkv');
    const asset = await mux.video.assets.create({ inputs: [{ url: files.url('non-standard.mkv') }], playback_policies: ['public'], passthrough: 'events' });
    states.watch('asset', asset.id);
    await states.until(asset.id, Boolean);
    gate.release();
    await states.until(asset.id, (b) => b?.status === 'ready', 120_000);
    await states.after(asset.id, () => mux.video.assets.update(asset.id, { passthrough: 'events, updated' }));
    const signed = await states.after(asset.id, () => mux.video.assets.createPlaybackId(asset.id, { policy: 'signed' }));
    await states.after(asset.id, () => mux.video.assets.deletePlaybackId(asset.id, signed.id));
    await mux.video.assets.delete(asset.id);
    await states.until(asset.id, (b) => b === undefined);

    // an asset whose input is not there: created (seen), then errored
    gate = files.hold('absent.mp4');
    const missing = await mux.video.assets.create({ inputs: [{ url: files.url('absent.mp4') }] });
    states.watch('asset', missing.id);
    await states.until(missing.id, Boolean);
    gate.release();
    await states.until(missing.id, (b) => b?.status === 'errored', 60_000);

    // direct uploads: cancelled; a media file (asset_created, its asset ready); not media (errored)
    const cancelled = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    states.watch('upload', cancelled.id);
    await states.until(cancelled.id, Boolean);
    await states.after(cancelled.id, () => mux.video.uploads.cancel(cancelled.id));

    const uploaded = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'], passthrough: 'uploaded' } });
    states.watch('upload', uploaded.id);
    await states.until(uploaded.id, Boolean);
    expect((await putBytes(uploaded.url!, fs.readFileSync(path.join(dir, 'standard.mp4')))).status).toBe(200);
    const uploadedAsset = (await states.until(uploaded.id, (b) => b?.status === 'asset_created'))!.asset_id as string;
    await states.until(uploadedAsset, (b) => b?.status === 'ready', 120_000);

    const notMedia = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    states.watch('upload', notMedia.id);
    await states.until(notMedia.id, Boolean);
    expect((await putBytes(notMedia.url!, Buffer.from('not a media file\n'.repeat(64)))).status).toBe(200);
    await states.until(notMedia.id, (b) => b?.status === 'errored', 60_000);

    // a live stream: its changes; the vocabulary it names deleted (the live service's consumer updates it)
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'reduced',
      reconnect_window: 2,
      generated_subtitles: [{ name: 'English', transcription_vocabulary_ids: [vocabulary.id] }],
    });
    states.watch('live', stream.id);
    await states.until(stream.id, Boolean);
    await states.after(stream.id, () => mux.video.liveStreams.update(stream.id, { passthrough: 'events' }));
    await states.after(stream.id, () => mux.video.liveStreams.disable(stream.id));
    await states.after(stream.id, () => mux.video.liveStreams.enable(stream.id));
    await mux.video.transcriptionVocabularies.delete(vocabulary.id);
    await states.until(vocabulary.id, (b) => b === undefined);
    await states.until(
      stream.id,
      (b) => (b?.generated_subtitles as Array<{ transcription_vocabulary_ids?: string[] }>)[0].transcription_vocabulary_ids?.length === 0,
    );

    // a simulcast target on a second RTMP server, reached through a proxy that holds the connection
    // (so `starting` lasts until the test has seen it)
    const port = await freePort();
    receiver = receiveRtmp(port, 'live', 'relay-key', path.join(dir, 'relayed.flv'));
    proxy = await gatedTcpProxy(port);
    const target = await mux.video.liveStreams.createSimulcastTarget(stream.id, {
      url: `rtmp://127.0.0.1:${proxy.port}/live`,
      stream_key: 'relay-key',
      passthrough: 'second server',
    });
    await states.until(target.id, Boolean); // watched once the stream's body names it
    const relayGate = proxy.hold();

    // live: connected, recording, active; the target starting, then broadcasting; its server gone: errored
    encoder = pushRtmp(stream.stream_key);
    const active = await states.until(stream.id, (b) => b?.status === 'active' && typeof b.active_asset_id === 'string', 60_000);
    const recording = String(active!.active_asset_id);
    await states.until(target.id, (b) => b?.status === 'starting', 30_000);
    await new Promise((r) => setTimeout(r, 300)); // a state the watch holds for a while
    relayGate.release();
    await states.until(target.id, (b) => b?.status === 'broadcasting', 30_000);
    const livePlaybackId = stream.playback_ids![0].id;
    await eventually(
      () => segmentsListed(livePlaybackId),
      (n) => n >= 1,
      30_000,
    );
    await receiver.kill();
    await states.until(target.id, (b) => b?.status === 'errored', 30_000);
    await eventually(
      () => segmentsListed(livePlaybackId),
      (n) => n >= 2,
      30_000,
    ); // a recording to make ready

    // the encoder leaves: disconnected, the reconnect window, idle; the recording ready; its
    // generated_live_final pass dies (track errored); the target idle
    await encoder.stop();
    await states.until(stream.id, (b) => b?.status === 'idle', 60_000);
    await states.until(recording, (b) => b?.status === 'ready', 60_000);
    await killRecognizerWhenItRuns();
    await states.until(recording, (b) =>
      ((b?.tracks ?? []) as Array<{ text_source?: string; status?: string }>).some((t) => t.text_source === 'generated_live_final' && t.status === 'errored'),
    );
    await states.until(target.id, (b) => b?.status === 'idle');
    await states.after(stream.id, () => mux.video.liveStreams.deleteSimulcastTarget(stream.id, target.id));
    await states.until(target.id, (b) => b === undefined);
    await mux.video.liveStreams.delete(stream.id);
    await states.until(stream.id, (b) => b === undefined);

    // every webhook in (each is held WEBHOOK_ORDER_HOLD_MS), then held against what GET showed
    const expected = EVENT_TYPES.filter((t) => !NOT_YET_MADE.includes(t));
    const events = await webhooksUntil(
      states,
      (es) => expected.every((t) => es.some((e) => e.type === t)) && es.some((e) => e.type === 'video.live_stream.deleted'),
    );
    await new Promise((r) => setTimeout(r, 2000)); // stragglers of the last objects
    const all = webhooksOf(states);
    expect(states.failure()).toBeUndefined();
    expect([...new Set(all.map((e) => e.type))].sort()).toEqual([...expected].sort());
    expect(events.length).toBeGreaterThan(0);

    const report = compareWithStates(all, states);
    if (process.env.E2E_EVENTS_REPORT) {
      const dump = {
        report: { ...report, compared: [...report.compared] },
        events: all,
        states: Object.fromEntries(states.ids().map((id) => [id, states.states(id)])),
      };
      fs.writeFileSync(process.env.E2E_EVENTS_REPORT, JSON.stringify(dump, null, 1));
    }
    if (report.unseen.length > 0) {
      console.log(
        `webhooks of states too brief to GET (not compared):\n${report.unseen.map((u) => `  ${u.event.type} ${u.event.object.id}: ${u.why}`).join('\n')}`,
      );
    }
    expect(report.mismatches.map(({ event, closest }) => ({ type: event.type, object: event.object, data: event.data, get: closest }))).toEqual([]);
    expect([...report.compared.keys()].sort()).toEqual([...expected].sort());
  });

  it('redelivers every event to every consumer: nothing happens twice', async () => {
    await states.stop();
    const walked = states.ids();
    const assets = walked.filter((id) => states.kindOf(id) === 'asset');
    const kept = walked.filter((id) => states.goneAt(id) === undefined);
    expect(kept.length).toBeGreaterThanOrEqual(6); // errored and ready assets, uploads in three end states

    // what every consumer has done: webhooks sent (per event id), jobs, events recorded, objects' bodies
    await eventually(pendingDeliveries, (n) => n === 0, 60_000);
    const snapshot = async () => ({
      webhooks: countBy(webhooksOf(states).map((e) => e.id)),
      jobs: await jobsOf(assets),
      outbox: await outboxEventIds(walked),
      processed: await processedCounts(),
      bodies: await Promise.all(kept.map(async (id) => (await api('GET', states.pathOf(id)!)).body as unknown)),
    });
    const before = await snapshot();
    const jobsBefore = await jobCount();
    expect(Object.values(before.webhooks).every((n) => n === 1)).toBe(true);

    // every outbox row of every service published again, to every consumer group
    const republished = await republishEverything();
    expect(republished).toBeGreaterThanOrEqual(Object.values(before.outbox).flat().length);
    await eventually(unpublishedRows, (n) => n === 0, 60_000);

    // published after all of it, so each consumer group handles these last (in process: in order;
    // on Kafka: until no group lags behind its topics)
    const sentinel = await mux.video.assets.create({ inputs: [{ url: files.url('sentinel-absent.mp4') }] });
    const word = await mux.video.transcriptionVocabularies.create({ phrases: ['sentinel'] });
    await mux.video.transcriptionVocabularies.delete(word.id);
    const sentinelHooks = await eventually(
      () =>
        Promise.resolve(
          receivedWebhooks()
            .map(webhookEvent)
            .filter((e) => e.object.id === sentinel.id || e.object.id === word.id),
        ),
      (es) => ['video.asset.errored', 'video.transcription_vocabulary.deleted'].every((t) => es.some((e) => e.type === t)),
      60_000,
    );
    const erroredId = sentinelHooks.find((e) => e.type === 'video.asset.errored')!.id;
    const forgottenId = sentinelHooks.find((e) => e.type === 'video.transcription_vocabulary.deleted')!.id;
    await eventually(
      () => jobsOf([sentinel.id]),
      (jobs) => jobs.length === 1,
      30_000,
    );
    await eventually(
      () => processedIds('uploads', 'uploads'),
      (ids) => ids.has(erroredId),
      30_000,
    );
    await eventually(
      () => processedIds('live', 'live-vocabularies'),
      (ids) => ids.has(forgottenId),
      30_000,
    );
    if (platform.mode === 'production') {
      const lag = () =>
        kafkaLag(process.env.TEST_KAFKA_BROKERS!.split(','), {
          webhooks: EVENT_TYPES.map(topicOf),
          transcoder: [topicOf('video.asset.created'), topicOf('video.asset.deleted')],
          uploads: [topicOf('video.asset.errored')],
          'live-vocabularies': [topicOf('video.transcription_vocabulary.deleted')],
        });
      expect(await eventually(lag, (n) => n === 0, 90_000)).toBe(0);
    }
    await eventually(pendingDeliveries, (n) => n === 0, 60_000);

    // nothing happened twice: no webhook again, no job, no state change, no event, no record of it
    const after = await snapshot();
    const sentinelEvents = new Set(sentinelHooks.map((e) => e.id));
    expect(
      Object.fromEntries(
        Object.keys(before.webhooks)
          .filter((id) => after.webhooks[id] !== 1)
          .map((id) => [id, after.webhooks[id]]),
      ),
    ).toEqual({});
    expect(Object.keys(after.webhooks).filter((id) => !(id in before.webhooks))).toEqual([]);
    expect(Object.entries(countBy(receivedWebhooks().map((w) => webhookEvent(w).id))).filter(([id, n]) => sentinelEvents.has(id) && n !== 1)).toEqual([]);
    expect(after.jobs).toEqual(before.jobs);
    expect(await jobCount()).toBe(jobsBefore + 1); // the sentinel's
    expect(after.outbox).toEqual(before.outbox);
    expect(after.bodies).toEqual(before.bodies);
    // the transcoder recorded the sentinel's created event, uploads its errored one, live the vocabulary's deletion
    expect(after.processed).toEqual({
      ...before.processed,
      'transcoder transcoder': before.processed['transcoder transcoder'] + 1,
      'uploads uploads': before.processed['uploads uploads'] + 1,
      'live live-vocabularies': before.processed['live live-vocabularies'] + 1,
    });
  });
});
