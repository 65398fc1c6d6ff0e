import Mux from '@mux/mux-node';
import { muxSignature } from './webhook-signature';

const SECRET = 'whsec_test';
const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9', webhookSecret: SECRET });

const body = JSON.stringify({ type: 'video.asset.ready', id: 'e1', object: { type: 'asset', id: 'a1' }, data: { passthrough: 'ünïcode ✓' } });

describe('muxSignature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>', () => {
    // vector from `printf '%s' '1700000000.{"type":"video.asset.ready"}' | openssl dgst -sha256 -hmac whsec_test`
    expect(muxSignature(SECRET, '{"type":"video.asset.ready"}', new Date(1_700_000_000_999))).toBe(
      't=1700000000,v1=c7b40993ed621952b3559d862177becb09f03bbe1f7c54ee6977b0de92b06065',
    );
  });

  it('is accepted by the official SDK: unwrap returns the body and verifySignature resolves', async () => {
    const headers = { 'mux-signature': muxSignature(SECRET, body, new Date()), 'content-type': 'application/json' };
    expect(await mux.webhooks.unwrap(body, headers)).toEqual(JSON.parse(body));
    await expect(mux.webhooks.verifySignature(body, headers)).resolves.toBeUndefined();
  });

  it('is refused by the SDK for a tampered body, another secret, or a timestamp older than 300 s', async () => {
    const headers = { 'mux-signature': muxSignature(SECRET, body, new Date()) };
    await expect(mux.webhooks.unwrap(body.replace('a1', 'a2'), headers)).rejects.toThrow('No signatures found matching the expected signature for payload.');
    await expect(mux.webhooks.unwrap(body, headers, 'another-secret')).rejects.toThrow('No signatures found matching the expected signature for payload.');
    const old = { 'mux-signature': muxSignature(SECRET, body, new Date(Date.now() - 301_000)) };
    await expect(mux.webhooks.unwrap(body, old)).rejects.toThrow('Webhook timestamp is too old');
  });
});
