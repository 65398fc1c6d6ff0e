import { assets } from '@platform/proto';
import { AssetProcessing } from '../pipeline/asset-processing';

/** The assets service as the transcoder sees it, recording each call (`log`) in order. */
export class FakeAssetProcessing implements AssetProcessing {
  readonly specs = new Map<string, assets.IngestSpec>();
  readonly probes: assets.RecordProbeRequest[] = [];
  readonly errored: Array<{ assetId: string; errors: assets.AssetErrors }> = [];
  readonly warnings: Array<{ assetId: string; warning: assets.AssetWarning }> = [];
  /** Set to make the next calls answer this (a refusal of the assets service), by method name. */
  readonly refuse = new Map<string, Error>();
  /** Set to make every call fail (the service is down). */
  failWith?: Error;

  constructor(readonly log: string[] = []) {}

  addAsset(assetId: string, spec: Partial<assets.IngestSpec> & { url?: string } = {}): assets.IngestSpec {
    const { url, ...rest } = spec;
    const full: assets.IngestSpec = {
      asset_id: assetId,
      status: 'preparing',
      input: url === undefined ? [] : [{ url, generated_subtitles: [] }],
      test: false,
      max_resolution_tier: '1080p',
      encoding_tier: 'smart',
      video_quality: 'plus',
      normalize_audio: false,
      ...rest,
    };
    this.specs.set(assetId, full);
    return full;
  }

  async getIngestSpec(assetId: string): Promise<assets.IngestSpec | undefined> {
    this.call(`getIngestSpec ${assetId}`);
    return this.specs.get(assetId);
  }

  async recordProbe(request: assets.RecordProbeRequest): Promise<void> {
    this.call(`recordProbe ${request.asset_id}`);
    this.probes.push(request);
  }

  async markReady(assetId: string): Promise<void> {
    this.call(`markReady ${assetId}`);
    const spec = this.specs.get(assetId);
    if (spec) spec.status = 'ready';
  }

  reportWarning(assetId: string, warning: assets.AssetWarning): Promise<void> {
    this.call(`reportWarning ${assetId}`);
    this.warnings.push({ assetId, warning });
    return Promise.resolve();
  }

  async markErrored(assetId: string, errors: assets.AssetErrors): Promise<void> {
    this.call(`markErrored ${assetId}`);
    this.errored.push({ assetId, errors });
    const spec = this.specs.get(assetId);
    if (spec) spec.status = 'errored';
  }

  private call(entry: string): void {
    if (this.failWith) throw this.failWith;
    const refusal = this.refuse.get(entry.split(' ')[0]);
    if (refusal) throw refusal;
    this.log.push(entry);
  }
}
