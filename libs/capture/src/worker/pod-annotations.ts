import fs from 'node:fs';

/** The annotation the KubernetesPodLauncher raises by one for each reload of the job's page. */
export const RELOAD_GENERATION_ANNOTATION = 'video-platform/reload-generation';

/**
 * A Downward API file of `metadata.annotations`: one `key="value"` line per annotation, the value quoted as Go's
 * `%q` does (JSON's escapes for anything our launcher writes; a line JSON cannot read keeps its raw text).
 */
export function parseAnnotations(text: string): Record<string, string> {
  const annotations: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const raw = line.slice(eq + 1);
    annotations[line.slice(0, eq)] = unquote(raw);
  }
  return annotations;
}

function unquote(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'string') return value;
  } catch {
    // not JSON-compatible: keep what is between the quotes
  }
  return raw.replace(/^"|"$/g, '');
}

/** The reload generation in the annotations (0 when absent or not a number). */
export function reloadGeneration(annotations: Record<string, string>): number {
  const generation = Number(annotations[RELOAD_GENERATION_ANNOTATION]);
  return Number.isSafeInteger(generation) && generation > 0 ? generation : 0;
}

/**
 * Polls the annotations file (the kubelet rewrites it when the Pod's annotations change) and calls `onReload` once
 * whenever the reload generation has risen since the last look; the first look sets where it starts.
 */
export function watchReloadGeneration(file: string, pollMs: number, onReload: () => void): { stop(): void } {
  let seen: number | undefined;
  const look = () => {
    let generation: number;
    try {
      generation = reloadGeneration(parseAnnotations(fs.readFileSync(file, 'utf8')));
    } catch {
      return; // not there (yet): the next look tries again
    }
    if (seen !== undefined && generation > seen) onReload();
    seen = Math.max(seen ?? 0, generation);
  };
  look();
  const timer = setInterval(look, pollMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
