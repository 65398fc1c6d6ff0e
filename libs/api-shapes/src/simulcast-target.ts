import { live } from '@platform/proto';
import { z } from 'zod';

/** Spec 2.3: a simulcast target of a live stream. */
export const simulcastTargetSchema = z.object({
  id: z.string(),
  passthrough: z.string().optional(),
  status: z.enum(['idle', 'starting', 'broadcasting', 'errored']),
  stream_key: z.string().optional(),
  url: z.string(),
  error_severity: z.enum(['normal', 'fatal']).optional(),
});

/** The data of `video.live_stream.simulcast_target.*`: the target with its stream's id (Mux's `WebhookSimulcastTarget`). */
export const simulcastTargetEventSchema = simulcastTargetSchema.extend({ live_stream_id: z.string() });

export type SimulcastTargetBody = z.infer<typeof simulcastTargetSchema>;
export type SimulcastTargetEventBody = z.infer<typeof simulcastTargetEventSchema>;

export function toSimulcastTarget(t: live.SimulcastTarget): SimulcastTargetBody {
  return {
    id: t.id,
    ...(t.passthrough !== undefined ? { passthrough: t.passthrough } : {}),
    status: t.status as SimulcastTargetBody['status'],
    ...(t.stream_key !== undefined ? { stream_key: t.stream_key } : {}),
    url: t.url,
    ...(t.error_severity !== undefined ? { error_severity: t.error_severity as SimulcastTargetBody['error_severity'] } : {}),
  };
}

export function toSimulcastTargetEvent(liveStreamId: string, t: live.SimulcastTarget): SimulcastTargetEventBody {
  return { ...toSimulcastTarget(t), live_stream_id: liveStreamId };
}
