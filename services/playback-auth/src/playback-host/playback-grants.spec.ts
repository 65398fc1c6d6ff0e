import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@platform/config';
import { PlaybackGrants } from './playback-grants';

describe('PlaybackGrants without PLAYBACK_GRANT_SECRET', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grants-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const grants = (dir = dataDir) => new PlaybackGrants(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error' }));
  const access = { p: 'pb1', a: 'asset-1' };

  it('keeps its key in DATA_DIR, so a grant handed out before a restart still verifies after it', () => {
    const grant = grants().issue(access);
    const afterRestart = grants();
    expect(afterRestart.check(grant, 'pb1')).toEqual(grants().check(grant, 'pb1'));
    expect(afterRestart.check(grant, 'pb1').ok).toBe(true);
  });

  it('writes the key file readable by its owner only, and another DATA_DIR has another key', () => {
    const grant = grants().issue(access);
    const file = path.join(dataDir, 'secrets', 'playback-grant.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'grants-other-'));
    try {
      expect(grants(other).check(grant, 'pb1').ok).toBe(false);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('uses PLAYBACK_GRANT_SECRET when it is set, and writes no file', () => {
    const withSecret = () => new PlaybackGrants(loadConfig({ DATA_DIR: dataDir, PLAYBACK_GRANT_SECRET: 'shared', LOG_LEVEL: 'error' }));
    expect(withSecret().check(withSecret().issue(access), 'pb1').ok).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secrets'))).toBe(false);
  });
});
