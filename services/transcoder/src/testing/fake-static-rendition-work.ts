import { assets } from '@platform/proto';
import { StaticRenditionWorkPort } from '../static-renditions/static-rendition-work.port';

/** The assets service's StaticRenditionProcessingService as the tasks see it: plans set per target, reports recorded. */
export class FakeStaticRenditionWork implements StaticRenditionWorkPort {
  /** `${assetId}/${target}` → plan; absent: the asset is gone. */
  readonly plans = new Map<string, assets.StaticRenditionWork>();
  readonly masterPlans = new Map<string, assets.MasterWork>();
  readonly records: assets.RecordStaticRenditionRequest[] = [];
  readonly masterRecords: assets.RecordMasterRequest[] = [];
  /** Reports of these file names are refused with this error (e.g. FAILED_PRECONDITION). */
  readonly refuse = new Map<string, Error>();

  async plan(assetId: string, target: string): Promise<assets.StaticRenditionWork | undefined> {
    return this.plans.get(`${assetId}/${target}`);
  }

  async record(request: assets.RecordStaticRenditionRequest): Promise<void> {
    const refusal = this.refuse.get(request.name);
    if (refusal) throw refusal;
    this.records.push(request);
  }

  async planMaster(assetId: string): Promise<assets.MasterWork | undefined> {
    return this.masterPlans.get(assetId);
  }

  async recordMaster(request: assets.RecordMasterRequest): Promise<void> {
    const refusal = this.refuse.get('master.mp4');
    if (refusal) throw refusal;
    this.masterRecords.push(request);
  }
}

export const planned = (name: string, shortSide: number, fields: Partial<assets.PlannedStaticRendition> = {}): assets.PlannedStaticRendition => ({
  name,
  video: true,
  audio: true,
  short_side: shortSide,
  ...fields,
});
