import type { RealtimeIdentity } from '../realtime-types';

/**
 * The join tokens of the realtime server's tests and bench, in place of signed ones: `space:participant`, or
 * `space:participant:hidden` for a compositor.
 */
export function verifyTestToken(token: string): Promise<RealtimeIdentity> {
  const [spaceId, participantId, hidden, extra] = token.split(':');
  if (!spaceId || !participantId || extra !== undefined || (hidden !== undefined && hidden !== 'hidden')) return Promise.reject(new Error('bad test token'));
  return Promise.resolve({ spaceId, participantId, hidden: hidden === 'hidden' });
}
