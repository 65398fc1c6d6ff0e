import fs from 'node:fs';
import path from 'node:path';

/** The first Chromium on PATH (Debian's `chromium`, or another distribution's name for it). */
export function findChromium(searchPath = process.env.PATH ?? ''): string {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of searchPath.split(path.delimiter)) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return 'chromium';
}
