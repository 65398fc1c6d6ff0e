import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { live } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { toLiveStream, toPlaybackId, toSimulcastTarget } from '@platform/api-shapes';
import { toCreateAssetRequest } from '../assets/asset.mapper';
import { CreatePlaybackIdBody, createPlaybackIdBody, playbackIdResponse } from '../assets/assets.schemas';
import { refuseUnbuiltAssetFeatures, refuseUnbuiltPlaybackIdFeatures } from '../assets/unbuilt-features';
import { OutboundUrls } from '../outbound/outbound-urls';
import { AnswersNotImplemented, ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { LIVE_STREAMS_CLIENT } from './live-streams-client';
import {
  CreateLiveStreamBody,
  createLiveStreamBody,
  embeddedSubtitlesBody,
  emptyDataResponse,
  generatedSubtitlesBody,
  LiveStreamListQuery,
  liveStreamListQuery,
  liveStreamListResponse,
  liveStreamResponse,
  SimulcastTargetInputBody,
  simulcastTargetInputSchema,
  simulcastTargetResponse,
  UpdateLiveStreamBody,
  updateLiveStreamBody,
} from './live-streams.schemas';

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Spec 4.3. Ingest (RTMP/SRT), live HLS and recording come with the live-ingest work. */
@ApiTags('Live streams')
@Controller('video/v1/live-streams')
export class LiveStreamsController {
  constructor(
    @Inject(LIVE_STREAMS_CLIENT) private readonly streams: live.LiveStreamsServiceClient,
    @Inject(OutboundUrls) private readonly outboundUrls: OutboundUrls,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a live stream: a stream key to push to, playback ids to watch with' })
  @ZodResponse(201, 'The new live stream, `idle`', liveStreamResponse)
  @AnswersNotImplemented('new_asset_settings fields of Mux features not built yet')
  async create(@ZodBody(createLiveStreamBody) body: CreateLiveStreamBody) {
    if (body.new_asset_settings) {
      this.outboundUrls.checkAssetInputs(body.new_asset_settings, 'new_asset_settings.');
      refuseUnbuiltAssetFeatures(body.new_asset_settings, 'new_asset_settings.');
    }
    const request: live.CreateLiveStreamRequest = {
      playback_policy: asArray(body.playback_policies ?? body.playback_policy),
      new_asset_settings: body.new_asset_settings ? toCreateAssetRequest(body.new_asset_settings) : undefined,
      reconnect_window: body.reconnect_window,
      use_slate_for_standard_latency: body.use_slate_for_standard_latency,
      reconnect_slate_url: body.reconnect_slate_url,
      passthrough: body.passthrough,
      audio_only: body.audio_only,
      embedded_subtitles: body.embedded_subtitles ?? [],
      generated_subtitles: (body.generated_subtitles ?? []).map((g) => ({ ...g, transcription_vocabulary_ids: g.transcription_vocabulary_ids ?? [] })),
      reduced_latency: body.reduced_latency,
      latency_mode: body.latency_mode,
      test: body.test,
      simulcast_targets: (body.simulcast_targets ?? []).map(toTargetInput),
      max_continuous_duration: body.max_continuous_duration,
    };
    return { data: toLiveStream(await firstValueFrom(this.streams.createLiveStream(request))) };
  }

  @Get()
  @ApiOperation({ summary: 'List live streams, newest first' })
  @ZodResponse(200, 'A page of live streams', liveStreamListResponse)
  async list(@ZodQuery(liveStreamListQuery) query: LiveStreamListQuery) {
    const { items } = await firstValueFrom(this.streams.listLiveStreams(query));
    return { data: items.map(toLiveStream) };
  }

  @Get(':LIVE_STREAM_ID')
  @ApiOperation({ summary: 'Retrieve a live stream' })
  @ZodResponse(200, 'The live stream', liveStreamResponse)
  async get(@Param('LIVE_STREAM_ID') id: string) {
    return { data: toLiveStream(await firstValueFrom(this.streams.getLiveStream({ id }))) };
  }

  @Patch(':LIVE_STREAM_ID')
  @ApiOperation({ summary: 'Update passthrough, latency mode, reconnect window, slate and max continuous duration' })
  @ZodResponse(200, 'The updated live stream', liveStreamResponse)
  async update(@Param('LIVE_STREAM_ID') id: string, @ZodBody(updateLiveStreamBody) body: UpdateLiveStreamBody) {
    return { data: toLiveStream(await firstValueFrom(this.streams.updateLiveStream({ id, ...body }))) };
  }

  @Delete(':LIVE_STREAM_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a live stream, its playback ids and simulcast targets' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('LIVE_STREAM_ID') id: string): Promise<void> {
    await firstValueFrom(this.streams.deleteLiveStream({ id }));
  }

  @Post(':LIVE_STREAM_ID/reset-stream-key')
  @ApiOperation({ summary: 'Give the stream a new key; the old one stops working at once' })
  @ZodResponse(201, 'The live stream with its new key', liveStreamResponse)
  async resetStreamKey(@Param('LIVE_STREAM_ID') id: string) {
    return { data: toLiveStream(await firstValueFrom(this.streams.resetStreamKey({ id }))) };
  }

  @Put(':LIVE_STREAM_ID/complete')
  @ApiOperation({ summary: 'End the recording now (EXT-X-ENDLIST), dropping the encoder after 60 s' })
  @ZodResponse(200, 'Done', emptyDataResponse)
  async complete(@Param('LIVE_STREAM_ID') id: string) {
    await firstValueFrom(this.streams.completeLiveStream({ id }));
    return { data: {} };
  }

  @Put(':LIVE_STREAM_ID/disable')
  @ApiOperation({ summary: 'Disable the stream: the encoder is refused until it is enabled' })
  @ZodResponse(200, 'Done', emptyDataResponse)
  async disable(@Param('LIVE_STREAM_ID') id: string) {
    await firstValueFrom(this.streams.disableLiveStream({ id }));
    return { data: {} };
  }

  @Put(':LIVE_STREAM_ID/enable')
  @ApiOperation({ summary: 'Enable a disabled stream' })
  @ZodResponse(200, 'Done', emptyDataResponse)
  async enable(@Param('LIVE_STREAM_ID') id: string) {
    await firstValueFrom(this.streams.enableLiveStream({ id }));
    return { data: {} };
  }

  @Put(':LIVE_STREAM_ID/embedded-subtitles')
  @ApiOperation({ summary: 'Set the CEA-608 caption channels to turn into text tracks' })
  @ZodResponse(200, 'The live stream', liveStreamResponse)
  async embeddedSubtitles(@Param('LIVE_STREAM_ID') id: string, @ZodBody(embeddedSubtitlesBody) body: { embedded_subtitles: live.EmbeddedSubtitle[] }) {
    return { data: toLiveStream(await firstValueFrom(this.streams.updateEmbeddedSubtitles({ id, embedded_subtitles: body.embedded_subtitles }))) };
  }

  @Put(':LIVE_STREAM_ID/generated-subtitles')
  @ApiOperation({ summary: 'Set generated subtitles (at most one; an empty list removes them)' })
  @ZodResponse(200, 'The live stream', liveStreamResponse)
  async generatedSubtitles(
    @Param('LIVE_STREAM_ID') id: string,
    @ZodBody(generatedSubtitlesBody)
    body: { generated_subtitles: Array<Omit<live.GeneratedSubtitle, 'transcription_vocabulary_ids'> & { transcription_vocabulary_ids?: string[] }> },
  ) {
    const generated = body.generated_subtitles.map((g) => ({ ...g, transcription_vocabulary_ids: g.transcription_vocabulary_ids ?? [] }));
    return { data: toLiveStream(await firstValueFrom(this.streams.updateGeneratedSubtitles({ id, generated_subtitles: generated }))) };
  }

  @Post(':LIVE_STREAM_ID/playback-ids')
  @ApiOperation({ summary: 'Create a playback id of a live stream' })
  @ZodResponse(201, 'The new playback id', playbackIdResponse)
  @AnswersNotImplemented('DRM playback ids')
  async createPlaybackId(@Param('LIVE_STREAM_ID') id: string, @ZodBody(createPlaybackIdBody) body: CreatePlaybackIdBody) {
    refuseUnbuiltPlaybackIdFeatures(body);
    return { data: toPlaybackId(await firstValueFrom(this.streams.createPlaybackId({ live_stream_id: id, policy: body.policy }))) };
  }

  @Get(':LIVE_STREAM_ID/playback-ids/:PLAYBACK_ID')
  @ApiOperation({ summary: 'Retrieve a playback id of a live stream' })
  @ZodResponse(200, 'The playback id', playbackIdResponse)
  async getPlaybackId(@Param('LIVE_STREAM_ID') id: string, @Param('PLAYBACK_ID') playbackId: string) {
    return { data: toPlaybackId(await firstValueFrom(this.streams.getPlaybackId({ live_stream_id: id, playback_id: playbackId }))) };
  }

  @Delete(':LIVE_STREAM_ID/playback-ids/:PLAYBACK_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a playback id of a live stream (ingest goes on)' })
  @ZodResponse(204, 'Deleted')
  async deletePlaybackId(@Param('LIVE_STREAM_ID') id: string, @Param('PLAYBACK_ID') playbackId: string): Promise<void> {
    await firstValueFrom(this.streams.deletePlaybackId({ live_stream_id: id, playback_id: playbackId }));
  }

  @Post(':LIVE_STREAM_ID/simulcast-targets')
  @ApiOperation({ summary: 'Add a simulcast target (only while the stream is idle)' })
  @ZodResponse(201, 'The new target, `idle`', simulcastTargetResponse)
  async createTarget(@Param('LIVE_STREAM_ID') id: string, @ZodBody(simulcastTargetInputSchema) body: SimulcastTargetInputBody) {
    return { data: toSimulcastTarget(await firstValueFrom(this.streams.createSimulcastTarget({ live_stream_id: id, target: toTargetInput(body) }))) };
  }

  @Get(':LIVE_STREAM_ID/simulcast-targets/:SIMULCAST_TARGET_ID')
  @ApiOperation({ summary: 'Retrieve a simulcast target' })
  @ZodResponse(200, 'The target', simulcastTargetResponse)
  async getTarget(@Param('LIVE_STREAM_ID') id: string, @Param('SIMULCAST_TARGET_ID') targetId: string) {
    return { data: toSimulcastTarget(await firstValueFrom(this.streams.getSimulcastTarget({ live_stream_id: id, simulcast_target_id: targetId }))) };
  }

  @Delete(':LIVE_STREAM_ID/simulcast-targets/:SIMULCAST_TARGET_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a simulcast target (only while the stream is idle)' })
  @ZodResponse(204, 'Deleted')
  async deleteTarget(@Param('LIVE_STREAM_ID') id: string, @Param('SIMULCAST_TARGET_ID') targetId: string): Promise<void> {
    await firstValueFrom(this.streams.deleteSimulcastTarget({ live_stream_id: id, simulcast_target_id: targetId }));
  }
}

function toTargetInput(t: SimulcastTargetInputBody): live.SimulcastTargetInput {
  return { url: t.url, passthrough: t.passthrough, stream_key: t.stream_key };
}
