import { INestApplication, LogLevel } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PlatformConfig } from '@platform/config';
import { PlatformConfigModule } from '@platform/grpc';
import { fakeUnitOfWork } from '@platform/testing';
import { ImageHostModule } from '../image-host/image-host.module';
import { STATIC_RENDITIONS_SERVICE } from '../playback-host/download-lookup';
import { ASSETS_SERVICE, LIVE_STREAMS_SERVICE } from '../playback-host/playback-id-lookup';
import { PlaybackHostModule } from '../playback-host/playback-host.module';
import { PlaybackRestrictionRepository } from '../playback-restrictions/playback-restriction.repository';
import { PlaybackRestrictionsService } from '../playback-restrictions/playback-restrictions.service';
import { SigningKeyRepository } from '../signing-keys/signing-key.repository';
import { SigningKeysService } from '../signing-keys/signing-keys.service';
import { FakeAssetsClient } from './fake-assets-client';
import { InMemoryPlaybackRestrictions } from './in-memory-playback-restrictions';
import { InMemorySigningKeys } from './in-memory-signing-keys';

/** What the playback service's HTTP side talks to, as fakes a test fills in. */
export interface PlaybackHttpFakes {
  /** The assets service (LookupPlaybackId, static renditions, masters). */
  assets: FakeAssetsClient;
  /** The live service's LookupPlaybackId (live streams' playback ids). */
  live: FakeAssetsClient;
  signingKeys: InMemorySigningKeys;
  keys: SigningKeysService;
  restrictionRows: InMemoryPlaybackRestrictions;
  restrictions: PlaybackRestrictionsService;
}

export function playbackHttpFakes(): PlaybackHttpFakes {
  const { unitOfWork } = fakeUnitOfWork();
  const signingKeys = new InMemorySigningKeys();
  const restrictionRows = new InMemoryPlaybackRestrictions();
  return {
    assets: new FakeAssetsClient(),
    live: new FakeAssetsClient(),
    signingKeys,
    keys: new SigningKeysService(signingKeys as unknown as SigningKeyRepository, unitOfWork),
    restrictionRows,
    restrictions: new PlaybackRestrictionsService(restrictionRows as unknown as PlaybackRestrictionRepository, unitOfWork),
  };
}

/**
 * The playback service's HTTP side (the playback host, and with `images` the image host registered before
 * it, as the app module does) over the fakes, not yet listening: no database, no gRPC.
 */
export async function playbackHttpApp(
  config: PlatformConfig,
  fakes: PlaybackHttpFakes,
  options: { images?: boolean; logger?: LogLevel[] | false } = {},
): Promise<INestApplication> {
  const hosts = options.images ? [ImageHostModule, PlaybackHostModule] : [PlaybackHostModule];
  const moduleRef = await Test.createTestingModule({ imports: [PlatformConfigModule.forRoot(config), ...hosts] })
    .overrideProvider(LIVE_STREAMS_SERVICE)
    .useValue(fakes.live)
    .overrideProvider(ASSETS_SERVICE)
    .useValue(fakes.assets)
    .overrideProvider(STATIC_RENDITIONS_SERVICE)
    .useValue(fakes.assets)
    .overrideProvider(SigningKeyRepository)
    .useValue(fakes.signingKeys)
    .overrideProvider(SigningKeysService)
    .useValue(fakes.keys)
    .overrideProvider(PlaybackRestrictionRepository)
    .useValue(fakes.restrictionRows)
    .overrideProvider(PlaybackRestrictionsService)
    .useValue(fakes.restrictions)
    .compile();
  return moduleRef.createNestApplication({ logger: options.logger ?? false });
}
