import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { freePort, until } from '@platform/testing';
import { api } from './context';
import { Encoder, eventually, pushRtmp, receiveRtmp, RtmpReceiver } from './encoder';
import { gatedTcpProxy, GatedFileServer, GatedProxy, serveGatedFiles } from './gates';
import { segmentsListed } from './live-playlists';
import { makeClip } from './media';
import { ObjectStates } from './object-states';
import { descendantPids } from './processes';
import { walkSpace } from './space-walk';
import { putBytes } from './uploads';

type Body = Record<string, unknown> | undefined;
const gone = (b: Body) => b === undefined;

/** Kills the platform's speech recognizer once it runs (the generated_live_final pass of a recording just made ready). */
async function killRecognizerWhenItRuns(timeoutMs = 20_000): Promise<void> {
  const pids = await until(
    'a speech recognizer to run for generated_live_final (is scripts/infra/speech.sh done?)',
    () => {
      const running = descendantPids(Number(process.env.E2E_PLATFORM_PID), 'recognize.py');
      return running.length > 0 && running;
    },
    { timeoutMs, intervalMs: 25 },
  );
  for (const pid of pids) process.kill(pid, 'SIGKILL');
}

/**
 * The steps that make every event type, each object watched from its creation (`states`). Each
 * step waits until GET has shown the state an action made before the next action, and a media host
 * and an RTMP proxy that answer when told hold short states long enough to be seen.
 */
export class EventWalk {
  readonly states = new ObjectStates();
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-events-'));
  private files?: GatedFileServer;
  private proxy?: GatedProxy;
  private receiver?: RtmpReceiver;
  private encoder?: Encoder;

  constructor(private readonly mux: Mux) {}

  async prepare(): Promise<void> {
    await makeClip(this.dir, 'non-standard', { seconds: 2, width: 320, height: 240, fps: 25, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    await makeClip(this.dir, 'standard', { seconds: 2, width: 320, height: 240, fps: 25 });
    fs.writeFileSync(path.join(this.dir, 'events.srt'), '1\n00:00:00,200 --> 00:00:01,500\nevents\n');
    for (const [name, colour] of [
      ['page.html', 'red'],
      ['page2.html', 'green'],
    ]) {
      fs.writeFileSync(path.join(this.dir, name), `<!doctype html><html><body style="margin:0;background:${colour}"></body></html>`);
    }
    this.files = await serveGatedFiles(this.dir);
  }

  /** A URL the test's media host answers for (404 for a name it has no file of). */
  url(name: string): string {
    return this.files!.url(name);
  }

  /** Signing key created, deleted; playback restriction created, updated twice, deleted; a vocabulary created, updated (deleted by `liveStream`). */
  async systemObjects(): Promise<{ vocabularyId: string }> {
    const { mux, states } = this;
    const key = await mux.system.signingKeys.create();
    states.watch('signing_key', key.id);
    await states.until(key.id, Boolean);
    await mux.system.signingKeys.delete(key.id);
    await states.until(key.id, gone);

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
    await states.until(restriction.id, gone);

    const vocabulary = await mux.video.transcriptionVocabularies.create({ name: 'events', phrases: ['webhook'] });
    states.watch('transcription_vocabulary', vocabulary.id);
    await states.until(vocabulary.id, Boolean);
    await states.after(vocabulary.id, () =>
      mux.video.transcriptionVocabularies.update(vocabulary.id, { name: 'events', phrases: ['webhook', 'registry'], passthrough: 'p' }),
    );
    return { vocabularyId: vocabulary.id };
  }

  /**
   * An asset whose media host answers when the test lets it: created (seen), a non-standard input
   * (tracks, reasons: seen while the ladder encodes), ready, updated three ways, a text track added
   * (preparing while its file is held, then ready) and deleted, deleted. Another whose input is
   * missing: created (seen), errored.
   */
  async assets(): Promise<void> {
    const { mux, states, files } = this;
    let gate = files!.hold('non-standard.mkv');
    const asset = await mux.video.assets.create({ inputs: [{ url: this.url('non-standard.mkv') }], playback_policies: ['public'], passthrough: 'events' });
    states.watch('asset', asset.id);
    await states.until(asset.id, Boolean);
    gate.release();
    await states.until(asset.id, (b) => b?.status === 'ready', 120_000);
    await states.after(asset.id, () => mux.video.assets.update(asset.id, { passthrough: 'events, updated' }));
    const signed = await states.after(asset.id, () => mux.video.assets.createPlaybackId(asset.id, { policy: 'signed' }));
    await states.after(asset.id, () => mux.video.assets.deletePlaybackId(asset.id, signed.id));
    gate = files!.hold('events.srt');
    const track = await mux.video.assets.createTrack(asset.id, { url: this.url('events.srt'), type: 'text', language_code: 'en' });
    const trackIn = (status: string) => (b: Body) =>
      ((b?.tracks ?? []) as Array<{ id: string; status?: string }>).some((t) => t.id === track.id && t.status === status);
    await states.until(asset.id, trackIn('preparing'));
    gate.release();
    await states.until(asset.id, trackIn('ready'), 60_000);
    await mux.video.assets.deleteTrack(asset.id, track.id!);
    await states.until(asset.id, (b) => !((b?.tracks ?? []) as Array<{ id: string }>).some((t) => t.id === track.id));
    await mux.video.assets.delete(asset.id);
    await states.until(asset.id, gone);

    gate = files!.hold('absent.mp4');
    const missing = await mux.video.assets.create({ inputs: [{ url: this.url('absent.mp4') }] });
    states.watch('asset', missing.id);
    await states.until(missing.id, Boolean);
    gate.release();
    await states.until(missing.id, (b) => b?.status === 'errored', 60_000);
  }

  /**
   * Downloads: an asset asking at creation for Static Renditions API renditions (one of them above its
   * source: skipped), preparing while its input is held, then a temporary master; one rendition
   * deleted, the master removed, then mp4_support's files made and deleted. Two more whose input is
   * missing: what they asked for errored.
   */
  async downloads(): Promise<void> {
    const { mux, states, files } = this;
    type Body = { static_renditions?: { status: string; files: Array<{ id?: string; resolution?: string; status?: string }> }; master?: { status: string } };
    let gate = files!.hold('standard.mp4');
    const asset = await mux.video.assets.create({
      inputs: [{ url: this.url('standard.mp4') }],
      playback_policies: ['public'],
      static_renditions: [{ resolution: 'highest' }, { resolution: '1080p', passthrough: 'too big' }],
    });
    states.watch('asset', asset.id);
    await states.until(asset.id, Boolean);
    gate.release();
    const settled = (await states.until(
      asset.id,
      (b) => (b as Body | undefined)?.static_renditions?.files.every((f) => f.status !== 'preparing') === true,
      120_000,
    )) as Body;
    // The master once the renditions are made: made beside them, its `ready` state could last only
    // milliseconds before a rendition's change (too brief for the watcher to GET it).
    await states.after(asset.id, () => mux.video.assets.updateMasterAccess(asset.id, { master_access: 'temporary' }));
    await states.until(asset.id, (b) => (b as Body | undefined)?.master?.status === 'ready', 60_000);
    const idOf = (resolution: string) => settled.static_renditions!.files.find((f) => f.resolution === resolution)!.id!;
    await states.after(asset.id, () => mux.video.assets.deleteStaticRendition(asset.id, idOf('highest')));
    await states.after(asset.id, () => mux.video.assets.updateMasterAccess(asset.id, { master_access: 'none' }));
    await states.after(asset.id, () => mux.video.assets.deleteStaticRendition(asset.id, idOf('1080p')));
    await states.after(asset.id, () => mux.video.assets.updateMP4Support(asset.id, { mp4_support: 'audio-only' }));
    await states.until(asset.id, (b) => (b as Body | undefined)?.static_renditions?.status === 'ready', 60_000);
    await states.after(asset.id, () => mux.video.assets.updateMP4Support(asset.id, { mp4_support: 'none' }));

    const asked: Array<[string, Omit<Mux.Video.AssetCreateParams, 'inputs'>]> = [
      ['absent-mp4.mp4', { mp4_support: 'standard', master_access: 'temporary' }],
      ['absent-rendition.mp4', { static_renditions: [{ resolution: 'audio-only' }] }],
    ];
    for (const [name, settings] of asked) {
      gate = files!.hold(name);
      const missing = await mux.video.assets.create({ inputs: [{ url: this.url(name) }], ...settings });
      states.watch('asset', missing.id);
      await states.until(missing.id, Boolean);
      gate.release();
      await states.until(missing.id, (b) => b?.status === 'errored', 60_000);
    }
  }

  /** Direct uploads: one cancelled; one of a media file (asset_created, its asset ready); one of something else (errored). */
  async uploads(): Promise<void> {
    const { mux, states } = this;
    const cancelled = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    states.watch('upload', cancelled.id);
    await states.until(cancelled.id, Boolean);
    await states.after(cancelled.id, () => mux.video.uploads.cancel(cancelled.id));

    const uploaded = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'], passthrough: 'uploaded' } });
    states.watch('upload', uploaded.id);
    await states.until(uploaded.id, Boolean);
    if ((await putBytes(uploaded.url!, fs.readFileSync(path.join(this.dir, 'standard.mp4')))).status !== 200) throw new Error('the upload PUT failed');
    const assetId = String((await states.until(uploaded.id, (b) => b?.status === 'asset_created'))!.asset_id);
    await states.until(assetId, (b) => b?.status === 'ready', 120_000);

    const notMedia = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    states.watch('upload', notMedia.id);
    await states.until(notMedia.id, Boolean);
    if ((await putBytes(notMedia.url!, Buffer.from('not a media file\n'.repeat(64)))).status !== 200) throw new Error('the upload PUT failed');
    await states.until(notMedia.id, (b) => b?.status === 'errored', 60_000);
  }

  /**
   * A live stream: updated, disabled, enabled; the vocabulary it names deleted (the live service's
   * consumer updates it); a simulcast target on a second RTMP server; an encoder (connected,
   * recording, active; the target starting, broadcasting, errored when its server goes); the encoder
   * leaves (disconnected, idle after the reconnect window; the recording ready, its
   * generated_live_final pass killed: track errored; the target idle); the target and the stream deleted.
   */
  async liveStream(vocabularyId: string): Promise<void> {
    const { mux, states } = this;
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'reduced',
      reconnect_window: 2,
      generated_subtitles: [{ name: 'English', transcription_vocabulary_ids: [vocabularyId] }],
    });
    states.watch('live', stream.id);
    await states.until(stream.id, Boolean);
    await states.after(stream.id, () => mux.video.liveStreams.update(stream.id, { passthrough: 'events' }));
    await states.after(stream.id, () => mux.video.liveStreams.disable(stream.id));
    await states.after(stream.id, () => mux.video.liveStreams.enable(stream.id));
    await mux.video.transcriptionVocabularies.delete(vocabularyId);
    await states.until(vocabularyId, gone);
    await states.until(
      stream.id,
      (b) => (b?.generated_subtitles as Array<{ transcription_vocabulary_ids?: string[] }>)[0].transcription_vocabulary_ids?.length === 0,
    );

    // the proxy holds the relay's connection, so `starting` lasts until the test has seen it
    const port = await freePort();
    this.receiver = receiveRtmp(port, 'live', 'relay-key', path.join(this.dir, 'relayed.flv'));
    this.proxy = await gatedTcpProxy(port);
    const target = await mux.video.liveStreams.createSimulcastTarget(stream.id, {
      url: `rtmp://127.0.0.1:${this.proxy.port}/live`,
      stream_key: 'relay-key',
      passthrough: 'second server',
    });
    await states.until(target.id, Boolean); // watched once the stream's body names it
    const relayGate = this.proxy.hold();

    this.encoder = pushRtmp(stream.stream_key);
    const active = await states.until(stream.id, (b) => b?.status === 'active' && typeof b.active_asset_id === 'string', 60_000);
    const recording = String(active!.active_asset_id);
    await states.until(target.id, (b) => b?.status === 'starting', 30_000);
    relayGate.release();
    await states.until(target.id, (b) => b?.status === 'broadcasting', 30_000);
    const livePlaybackId = stream.playback_ids![0].id;
    await eventually(
      () => segmentsListed(livePlaybackId),
      (n) => n >= 1,
      30_000,
    );
    await this.receiver.kill();
    await states.until(target.id, (b) => b?.status === 'errored', 30_000);
    await eventually(
      () => segmentsListed(livePlaybackId),
      (n) => n >= 2,
      30_000,
    ); // a recording to make ready

    await this.encoder.stop();
    await states.until(stream.id, (b) => b?.status === 'idle', 60_000);
    await states.until(recording, (b) => b?.status === 'ready', 60_000);
    await killRecognizerWhenItRuns();
    await states.until(recording, (b) =>
      ((b?.tracks ?? []) as Array<{ text_source?: string; status?: string }>).some((t) => t.text_source === 'generated_live_final' && t.status === 'errored'),
    );
    await states.until(target.id, (b) => b?.status === 'idle');
    await states.after(stream.id, () => mux.video.liveStreams.deleteSimulcastTarget(stream.id, target.id));
    await states.until(target.id, gone);
    await mux.video.liveStreams.delete(stream.id);
    await states.until(stream.id, gone);
  }

  /**
   * A web input streaming into a live stream of its own (both watched): created, its url updated, launched
   * (launching, then streaming once the ingest has the publish: the stream connected and active), shut down
   * (idle; the stream idle at once with no reconnect window), deleted; the stream deleted.
   */
  async webInput(): Promise<void> {
    const { mux, states } = this;
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    states.watch('live', stream.id);
    await states.until(stream.id, Boolean);
    const body = { url: this.url('page.html'), live_stream_id: stream.id, resolution: '720x720', passthrough: 'events' };
    const created = await api('POST', '/video/v1/web-inputs', { body });
    if (created.status !== 201) throw new Error(`web input create: ${created.status} ${JSON.stringify(created.body)}`);
    const id = String(created.body.data.id);
    states.watch('web_input', id);
    await states.until(id, Boolean);
    await states.after(id, () => api('PUT', `/video/v1/web-inputs/${id}/url`, { body: { url: this.url('page2.html') } }));
    await api('PUT', `/video/v1/web-inputs/${id}/launch`);
    await states.until(id, (b) => b?.status === 'streaming', 60_000);
    await states.until(stream.id, (b) => b?.status === 'active', 30_000);
    await api('PUT', `/video/v1/web-inputs/${id}/shutdown`);
    await states.until(id, (b) => b?.status === 'idle', 30_000);
    await states.until(stream.id, (b) => b?.status === 'idle', 30_000);
    await api('DELETE', `/video/v1/web-inputs/${id}`);
    await states.until(id, gone);
    await mux.video.liveStreams.delete(stream.id);
    await states.until(stream.id, gone);
  }

  /** A space and its broadcast through their states (space-walk.ts). */
  space(): Promise<void> {
    return walkSpace(this.mux, this.states);
  }

  async close(): Promise<void> {
    await this.states.stop();
    await this.encoder?.stop();
    await this.receiver?.kill();
    await this.proxy?.close();
    await this.files?.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
