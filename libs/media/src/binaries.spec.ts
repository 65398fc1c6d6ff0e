import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BinaryLookup, resolveMediaBinaries, systemLookup } from './binaries';

/** A lookup where only the listed paths run, each printing its version line. */
function lookup(versions: Record<string, string>, npm: Partial<Record<'ffmpeg' | 'ffprobe', string>> = {}): BinaryLookup & { tried: string[] } {
  const tried: string[] = [];
  return {
    tried,
    async version(path) {
      tried.push(path);
      if (!(path in versions)) throw Object.assign(new Error(`spawn ${path} ENOENT`), { code: 'ENOENT' });
      return `${versions[path]}\nbuilt with gcc\n`;
    },
    npmPath: (tool) => npm[tool],
  };
}

describe('resolveMediaBinaries', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'binaries-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses FFMPEG_PATH / FFPROBE_PATH first', async () => {
    const l = lookup({ '/opt/ff/ffmpeg': 'ffmpeg version 7.0', '/opt/ff/ffprobe': 'ffprobe version 7.0', ffmpeg: 'x', ffprobe: 'x' });
    expect(await resolveMediaBinaries({ ffmpegPath: '/opt/ff/ffmpeg', ffprobePath: '/opt/ff/ffprobe' }, l)).toEqual({
      ffmpeg: { path: '/opt/ff/ffmpeg', source: 'config', version: 'ffmpeg version 7.0' },
      ffprobe: { path: '/opt/ff/ffprobe', source: 'config', version: 'ffprobe version 7.0' },
    });
  });

  it('fails naming the variable when a configured path does not run, without falling back', async () => {
    const l = lookup({ ffmpeg: 'ffmpeg version 5.1', ffprobe: 'ffprobe version 5.1' });
    await expect(resolveMediaBinaries({ ffmpegPath: '/nope/ffmpeg' }, l)).rejects.toThrow(
      'FFMPEG_PATH=/nope/ffmpeg does not run (/nope/ffmpeg -version failed)',
    );
  });

  it('then the binaries on PATH, each tool on its own', async () => {
    const l = lookup({ ffmpeg: 'ffmpeg version 5.1.9', '/opt/ffprobe': 'ffprobe version 6.0' });
    expect(await resolveMediaBinaries({ ffprobePath: '/opt/ffprobe' }, l)).toEqual({
      ffmpeg: { path: 'ffmpeg', source: 'path', version: 'ffmpeg version 5.1.9' },
      ffprobe: { path: '/opt/ffprobe', source: 'config', version: 'ffprobe version 6.0' },
    });
  });

  it('then the npm-shipped binary, made executable when npm skipped its postinstall chmod', async () => {
    const shipped = join(dir, 'ffmpeg');
    writeFileSync(shipped, '#!/bin/sh\necho "ffmpeg version N-47683-static"\n');
    chmodSync(shipped, 0o644);
    const l = lookup({ [shipped]: 'ffmpeg version N-47683-static', ffprobe: 'ffprobe version 5.1' }, { ffmpeg: shipped });
    expect(await resolveMediaBinaries({}, l)).toEqual({
      ffmpeg: { path: shipped, source: 'npm', version: 'ffmpeg version N-47683-static' },
      ffprobe: { path: 'ffprobe', source: 'path', version: 'ffprobe version 5.1' },
    });
    expect(statSync(shipped).mode & 0o777).toBe(0o755);
    expect(l.tried).toEqual(expect.arrayContaining(['ffmpeg', shipped]));
  });

  it('explains what to do when there is no binary anywhere', async () => {
    await expect(resolveMediaBinaries({}, lookup({ ffmpeg: 'ffmpeg version 5.1' }))).rejects.toThrow(
      'No ffprobe found: set FFPROBE_PATH, install ffmpeg (e.g. apt-get install ffmpeg), or install the npm package @ffprobe-installer/ffprobe for this platform',
    );
  });

  it('finds the packages installed in this repository and their binaries run', async () => {
    const path = systemLookup.npmPath('ffprobe');
    expect(path).toMatch(/@ffprobe-installer\/linux-x64\/ffprobe$/);
    const resolved = await resolveMediaBinaries(
      {},
      { ...systemLookup, version: (p) => (p === 'ffprobe' || p === 'ffmpeg' ? Promise.reject(new Error('hidden')) : systemLookup.version(p)) },
    );
    expect(resolved.ffprobe).toMatchObject({ path, source: 'npm' });
    expect(resolved.ffprobe.version).toMatch(/^ffprobe version /);
    expect(() => accessSync(path!, constants.X_OK)).not.toThrow();
  }, 30_000);
});
