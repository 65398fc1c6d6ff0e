import { MUX_EMBED_DICTIONARY as committed } from '../services/analytics/src/collector/mux-embed-keys';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { extractInstalled } = require('./mux-embed-dictionary.js') as { extractInstalled: () => typeof committed };

describe('mux-embed key dictionary (services/analytics/src/collector/mux-embed-keys.ts)', () => {
  it('is the installed mux-embed’s (after an upgrade: node scripts/mux-embed-dictionary.js)', () => {
    expect(committed).toEqual(extractInstalled());
  });
});
