import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { platformMetrics } from '@platform/metrics';
import { Observable, tap } from 'rxjs';

/**
 * Times every gRPC method a service serves (`grpc_server_handling_seconds`, by method and outcome).
 * HTTP handlers of the same app are counted by `httpMetrics` instead.
 */
export class GrpcMetricsInterceptor implements NestInterceptor {
  private readonly duration = platformMetrics.grpcDuration();

  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const started = process.hrtime.bigint();
    const method = `${context.getClass().name}.${context.getHandler().name}`;
    const observe = (code: string) => this.duration.observe({ service: this.service, method, code }, Number(process.hrtime.bigint() - started) / 1e9);
    return next.handle().pipe(tap({ complete: () => observe('ok'), error: () => observe('error') }));
  }
}
