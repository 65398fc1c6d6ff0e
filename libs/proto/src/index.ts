import path from 'node:path';

export * as common from './gen/platform/common/v1/common';
export * as health from './gen/grpc/health/v1/health';
export * as playbackAuth from './gen/playback_auth/v1/playback_auth';
export * as live from './gen/live/v1/live';
export * as assets from './gen/assets/v1/assets';
export * as uploads from './gen/uploads/v1/uploads';
export * as spaces from './gen/spaces/v1/spaces';
export * as webInputs from './gen/web_inputs/v1/web_inputs';
export * as analytics from './gen/analytics/v1/analytics';
export * as deliveryUsage from './gen/analytics/v1/delivery_usage';
export * as transcoder from './gen/transcoder/v1/transcoder';
export * as webhooks from './gen/webhooks/v1/webhooks';
export * from './service-protos';

/** The .proto sources, loaded at run time by @grpc/proto-loader. */
export const PROTO_ROOT = path.resolve(__dirname, '../../../proto');

/**
 * Loader options matching ts-proto's output: snake_case field names kept, int64 as
 * number, repeated fields always present, proto3 `optional` left absent when unset.
 */
export const PROTO_LOADER_OPTIONS = {
  keepCase: true,
  longs: Number,
  enums: Number,
  defaults: true,
  arrays: true,
  oneofs: false,
  includeDirs: [PROTO_ROOT],
};
