/** Which proto file and package each platform service serves (relative to PROTO_ROOT); `more`: further files of that package it serves. */
export const SERVICE_PROTOS = {
  'playback-auth': { file: 'playback_auth/v1/playback_auth.proto', package: 'platform.playback_auth.v1' },
  live: { file: 'live/v1/live.proto', package: 'platform.live.v1' },
  assets: { file: 'assets/v1/assets.proto', package: 'platform.assets.v1' },
  uploads: { file: 'uploads/v1/uploads.proto', package: 'platform.uploads.v1' },
  spaces: { file: 'spaces/v1/spaces.proto', package: 'platform.spaces.v1' },
  'web-inputs': { file: 'web_inputs/v1/web_inputs.proto', package: 'platform.web_inputs.v1' },
  analytics: { file: 'analytics/v1/analytics.proto', package: 'platform.analytics.v1', more: ['analytics/v1/delivery_usage.proto'] },
  transcoder: { file: 'transcoder/v1/transcoder.proto', package: 'platform.transcoder.v1' },
  webhooks: { file: 'webhooks/v1/webhooks.proto', package: 'platform.webhooks.v1' },
} as const;

export const HEALTH_PROTO = { file: 'grpc/health/v1/health.proto', package: 'grpc.health.v1' } as const;
