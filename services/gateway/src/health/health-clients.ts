import { Provider } from '@nestjs/common';
import { ClientGrpc } from '@nestjs/microservices';
import { SERVICE_NAMES, ServiceName } from '@platform/config';
import { health } from '@platform/proto';
import { grpcClientToken } from '../grpc-clients/grpc-clients.module';

/** grpc.health.v1 clients of every platform service, by service name. */
export const HEALTH_CLIENTS = Symbol('HEALTH_CLIENTS');

export type HealthClients = Record<ServiceName, health.HealthClient>;

export const healthClientsProvider: Provider = {
  provide: HEALTH_CLIENTS,
  inject: SERVICE_NAMES.map(grpcClientToken),
  useFactory: (...clients: ClientGrpc[]): HealthClients =>
    Object.fromEntries(SERVICE_NAMES.map((name, i) => [name, clients[i].getService<health.HealthClient>(health.HEALTH_SERVICE_NAME)])) as HealthClients,
};
