import { VerifySignedTokenClient } from '@platform/grpc';
import { playbackAuth } from '@platform/proto';
import { generateKeyPair, SignJWT } from 'jose';
import { of } from 'rxjs';
import { JoinRefusedError, JoinTokens } from './join-tokens';

/** Stands in for playback-auth: answers what its VerifySignedToken would for the token's claims. */
function verifierAnswering(reply: Partial<playbackAuth.VerifySignedTokenReply>): VerifySignedTokenClient & { calls: playbackAuth.VerifySignedTokenRequest[] } {
  const calls: playbackAuth.VerifySignedTokenRequest[] = [];
  return {
    calls,
    verifySignedToken: (request) => {
      calls.push(request);
      return of({ valid: false, reason: '', subject: '', audience: '', key_id: '', ...reply });
    },
  };
}

async function rs256(claims: Record<string, unknown>): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setSubject('space1').setAudience('rt').setExpirationTime('1h').sign(privateKey);
}

describe('JoinTokens', () => {
  const exists = async (id: string) => id === 'space1';
  const active = async (_spaceId: string, broadcastId: string) => broadcastId === 'b1';

  it('lets a participant in with the verified subject and its participant_id, asking playback-auth for audience rt', async () => {
    const verifier = verifierAnswering({ valid: true, subject: 'space1', audience: 'rt' });
    const token = await rs256({ participant_id: 'alice' });
    await expect(new JoinTokens(verifier, exists, active).verify(token)).resolves.toEqual({ spaceId: 'space1', participantId: 'alice', hidden: false });
    expect(verifier.calls).toEqual([{ token, audiences: ['rt'] }]);
  });

  it('gives a participant without participant_id an id of its own', async () => {
    const joiner = await new JoinTokens(verifierAnswering({ valid: true, subject: 'space1', audience: 'rt' }), exists, active).verify(await rs256({}));
    expect(joiner.participantId).toMatch(/^p-[0-9a-f]{16}$/);
  });

  it('refuses with playback-auth’s reason, a space that does not exist, a bad participant_id, and no token', async () => {
    const refused = new JoinTokens(verifierAnswering({ valid: false, reason: 'Token expired' }), exists, active);
    await expect(refused.verify(await rs256({}))).rejects.toThrow(new JoinRefusedError('Token expired'));
    const elsewhere = new JoinTokens(verifierAnswering({ valid: true, subject: 'space2', audience: 'rt' }), exists, active);
    await expect(elsewhere.verify(await rs256({}))).rejects.toThrow('No space space2');
    const badId = new JoinTokens(verifierAnswering({ valid: true, subject: 'space1', audience: 'rt' }), exists, active);
    await expect(badId.verify(await rs256({ participant_id: 42 }))).rejects.toThrow(/participant_id/);
    await expect(badId.verify(await rs256({ participant_id: 'compositor-b1' }))).rejects.toThrow(/may not start with compositor-/);
    await expect(badId.verify('')).rejects.toThrow(/required/);
    await expect(badId.verify('not.a.jwt')).rejects.toThrow(JoinRefusedError);
  });

  it('lets its own compositor in hidden, without asking playback-auth; another process’s compositor token is refused', async () => {
    const verifier = verifierAnswering({});
    const tokens = new JoinTokens(verifier, exists, active);
    const token = await tokens.signCompositor('space1', 'b1', 60);
    await expect(tokens.verify(token)).resolves.toEqual({ spaceId: 'space1', participantId: 'compositor-b1', hidden: true });
    expect(verifier.calls).toEqual([]);
    await expect(new JoinTokens(verifier, exists, active).verify(token)).rejects.toThrow(/Compositor token refused: signature verification failed/);
    await expect(tokens.verify(await tokens.signCompositor('space1', 'b2', 60))).rejects.toThrow('Compositor token refused: broadcast b2 is not active');
  });
});
