import { execFile } from 'node:child_process';
import { access, chmod, constants, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PlatformConfig } from '@platform/config';
import { MediaTool } from './media-errors';

const execFileAsync = promisify(execFile);

/** Where a binary came from, in the order they are tried. */
export type BinarySource = 'config' | 'path' | 'npm';

export interface ResolvedBinary {
  path: string;
  source: BinarySource;
  /** First line of `-version`, e.g. `ffmpeg version 5.1.9-0+deb12u1 …`. */
  version: string;
}

export interface BinaryLookup {
  /** Runs `<path> -version` and resolves its stdout; rejects when it cannot run. */
  version(path: string): Promise<string>;
  /** Path of the binary shipped in npm (`@ffmpeg-installer/ffmpeg` / `@ffprobe-installer/ffprobe`), if installed. */
  npmPath(tool: MediaTool): string | undefined;
}

export const systemLookup: BinaryLookup = {
  version: async (path) => (await execFileAsync(path, ['-version'], { timeout: 10_000 })).stdout,
  npmPath(tool) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require(tool === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe') as { path: string }).path;
    } catch {
      return undefined; // no build for this platform, or the package is not installed
    }
  },
};

type MediaSettings = Pick<PlatformConfig['media'], 'ffmpegPath' | 'ffprobePath'>;

/**
 * Finds ffmpeg and ffprobe, each on its own: the configured path (FFMPEG_PATH / FFPROBE_PATH; an
 * error when it does not run), else the one on PATH, else the static build shipped inside npm.
 * npm 11 does not run those packages' postinstall `chmod u+x`, so the file is made executable here.
 */
export async function resolveMediaBinaries(media: MediaSettings, lookup: BinaryLookup = systemLookup): Promise<Record<MediaTool, ResolvedBinary>> {
  const [ffmpeg, ffprobe] = await Promise.all([resolveBinary('ffmpeg', media.ffmpegPath, lookup), resolveBinary('ffprobe', media.ffprobePath, lookup)]);
  return { ffmpeg, ffprobe };
}

async function resolveBinary(tool: MediaTool, configured: string | undefined, lookup: BinaryLookup): Promise<ResolvedBinary> {
  const variable = tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
  if (configured) {
    const version = await runs(configured, lookup);
    if (version === undefined) throw new Error(`${variable}=${configured} does not run (${configured} -version failed)`);
    return { path: configured, source: 'config', version };
  }
  const onPath = await runs(tool, lookup);
  if (onPath !== undefined) return { path: tool, source: 'path', version: onPath };
  const shipped = lookup.npmPath(tool);
  if (shipped) {
    await makeExecutable(shipped);
    const version = await runs(shipped, lookup);
    if (version !== undefined) return { path: shipped, source: 'npm', version };
  }
  throw new Error(
    `No ${tool} found: set ${variable}, install ffmpeg (e.g. apt-get install ffmpeg), or install the npm package ` +
      `${tool === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe'} for this platform`,
  );
}

async function runs(path: string, lookup: BinaryLookup): Promise<string | undefined> {
  try {
    return (await lookup.version(path)).split('\n')[0].trim();
  } catch {
    return undefined;
  }
}

async function makeExecutable(path: string): Promise<void> {
  try {
    await access(path, constants.X_OK);
  } catch {
    // Not ours to change (another owner, read-only install): the -version check then reports it.
    await stat(path)
      .then(({ mode }) => chmod(path, mode | 0o111))
      .catch(() => undefined);
  }
}
