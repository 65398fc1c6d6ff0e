import { OutboundGuard, OutboundRefusedError } from '@platform/outbound';
import { originOf } from './webhook-poster';

/**
 * What to warn at start when WEBHOOK_URL can be seen to be refused without DNS (an IP literal or a
 * `localhost` name the policy refuses); undefined when it is unset or may be allowed. A host name is
 * checked at each POST, after DNS.
 */
export function webhookUrlRefusal(url: string | undefined, guard: OutboundGuard): string | undefined {
  if (!url) return undefined;
  try {
    guard.checkUrl(url, ['http', 'https']);
    return undefined;
  } catch (err) {
    if (!(err instanceof OutboundRefusedError)) throw err;
    return `WEBHOOK_URL (${originOf(url)}) is refused (${err.reason}): every webhook will fail until it changes or OUTBOUND_ALLOW allows it`;
  }
}
