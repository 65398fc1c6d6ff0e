/**
 * The platform's services, in start order. The gRPC port is each service's default
 * loopback port; `<ENV_PREFIX>_GRPC_URL` overrides the address.
 */
export const SERVICES = [
  { name: 'playback-auth', envPrefix: 'PLAYBACK_AUTH', grpcPort: 50054 },
  { name: 'live', envPrefix: 'LIVE', grpcPort: 50052 },
  { name: 'assets', envPrefix: 'ASSETS', grpcPort: 50051 },
  { name: 'uploads', envPrefix: 'UPLOADS', grpcPort: 50053 },
  { name: 'spaces', envPrefix: 'SPACES', grpcPort: 50055 },
  { name: 'web-inputs', envPrefix: 'WEB_INPUTS', grpcPort: 50056 },
  { name: 'analytics', envPrefix: 'ANALYTICS', grpcPort: 50057 },
  { name: 'transcoder', envPrefix: 'TRANSCODER', grpcPort: 50058 },
  { name: 'webhooks', envPrefix: 'WEBHOOKS', grpcPort: 50059 },
] as const;

export type ServiceName = (typeof SERVICES)[number]['name'];

export const SERVICE_NAMES: readonly ServiceName[] = SERVICES.map((s) => s.name);
