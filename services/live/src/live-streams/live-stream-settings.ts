import { isLanguageCode, passthroughProblems } from '@platform/api-rules';
import { DomainError } from '@platform/errors';
import { live } from '@platform/proto';
import { LatencyMode } from './live-stream.entity';
import { OutboundPolicy } from './outbound-policy';

export const LATENCY_MODES = ['low', 'reduced', 'standard'] as const;
export const PLAYBACK_POLICIES = ['public', 'signed'] as const;
export const RECONNECT_WINDOW_MAX = 1800;
export const MAX_CONTINUOUS_MIN = 60;
export const MAX_CONTINUOUS_MAX = 43_200;
export const LANGUAGE_CHANNELS = ['cc1', 'cc2', 'cc3', 'cc4'] as const;
export const GENERATED_LANGUAGES = ['en', 'en-US'] as const;
export const PHRASES_USED = 1000;

const oneOf = (values: readonly string[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** Spec 2.3: standard latency waits 60 s for a reconnect; reduced and low do not wait unless told to. */
export function defaultReconnectWindow(mode: LatencyMode): number {
  return mode === 'standard' ? 60 : 0;
}

/** latency_mode, or the deprecated reduced_latency (true → reduced); both must agree. Default standard. */
export function latencyModeOf(mode: string | undefined, reducedLatency: boolean | undefined, invalid: string[]): LatencyMode {
  if (mode !== undefined && !(LATENCY_MODES as readonly string[]).includes(mode)) {
    invalid.push(`latency_mode: ${oneOf(LATENCY_MODES)}`);
    return 'standard';
  }
  if (mode !== undefined && reducedLatency === true && mode !== 'reduced') {
    invalid.push(`reduced_latency: true contradicts latency_mode ${JSON.stringify(mode)} (reduced_latency is deprecated: use latency_mode)`);
  }
  return (mode as LatencyMode | undefined) ?? (reducedLatency ? 'reduced' : 'standard');
}

export function checkReconnectWindow(value: number | undefined, invalid: string[]): void {
  if (value !== undefined && (!Number.isFinite(value) || value < 0 || value > RECONNECT_WINDOW_MAX)) {
    invalid.push(`reconnect_window: must be from 0 to ${RECONNECT_WINDOW_MAX} seconds`);
  }
}

export function checkMaxContinuousDuration(value: number | undefined, invalid: string[]): void {
  if (value !== undefined && (!Number.isInteger(value) || value < MAX_CONTINUOUS_MIN || value > MAX_CONTINUOUS_MAX)) {
    invalid.push(`max_continuous_duration: must be an integer from ${MAX_CONTINUOUS_MIN} to ${MAX_CONTINUOUS_MAX} seconds`);
  }
}

/** An http(s) image URL; an address the platform will not connect to (OUTBOUND_ALLOW) is refused now when the URL names it literally. */
export function checkSlateUrl(value: string | undefined, invalid: string[], policy: OutboundPolicy): void {
  if (value === undefined || value === '') return;
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
    invalid.push('reconnect_slate_url: must be an http or https URL of an image');
    return;
  }
  const refusal = policy.slateUrlRefusal(value);
  if (refusal) invalid.push(`reconnect_slate_url: ${refusal}`);
}

export function checkPlaybackPolicies(policies: string[], invalid: string[]): void {
  policies.forEach((p, i) => {
    if (!(PLAYBACK_POLICIES as readonly string[]).includes(p)) invalid.push(`playback_policy[${i}]: ${oneOf(PLAYBACK_POLICIES)}`);
  });
}

/** embedded_subtitles (CEA-608 channels), defaults applied: language_code `en`, language_channel `cc1`. */
export function validEmbeddedSubtitles(items: live.EmbeddedSubtitle[], invalid: string[]): live.EmbeddedSubtitle[] {
  const channels = new Set<string>();
  return items.map((item, i) => {
    const at = `embedded_subtitles[${i}]`;
    const languageCode = item.language_code ?? 'en';
    const channel = item.language_channel ?? 'cc1';
    if (!isLanguageCode(languageCode)) invalid.push(`${at}.language_code: must be a BCP 47 language code such as "en" or "es-MX"`);
    if (!(LANGUAGE_CHANNELS as readonly string[]).includes(channel)) invalid.push(`${at}.language_channel: ${oneOf(LANGUAGE_CHANNELS)}`);
    else if (channels.has(channel)) invalid.push(`${at}.language_channel: ${channel} is already used by another item`);
    channels.add(channel);
    invalid.push(...passthroughProblems(item.passthrough, `${at}.passthrough`));
    return {
      ...(item.name !== undefined ? { name: item.name } : {}),
      ...(item.passthrough !== undefined ? { passthrough: item.passthrough } : {}),
      language_code: languageCode,
      language_channel: channel,
    };
  });
}

/** generated_subtitles: at most one item (spec 8), language `en`/`en-US` (default `en`), vocabularies by id. */
export function validGeneratedSubtitles(items: live.GeneratedSubtitle[], invalid: string[]): live.GeneratedSubtitle[] {
  if (items.length > 1) invalid.push('generated_subtitles: at most one item');
  return items.map((item, i) => {
    const at = `generated_subtitles[${i}]`;
    const languageCode = item.language_code ?? 'en';
    if (!(GENERATED_LANGUAGES as readonly string[]).includes(languageCode)) invalid.push(`${at}.language_code: ${oneOf(GENERATED_LANGUAGES)}`);
    invalid.push(...passthroughProblems(item.passthrough, `${at}.passthrough`));
    return {
      ...(item.name !== undefined ? { name: item.name } : {}),
      ...(item.passthrough !== undefined ? { passthrough: item.passthrough } : {}),
      language_code: languageCode,
      transcription_vocabulary_ids: [...(item.transcription_vocabulary_ids ?? [])],
    };
  });
}

/**
 * A simulcast target: the RTMP(S) URL of the third party (application included) and its key. An
 * address the platform will not connect to (OUTBOUND_ALLOW), or its own RTMP ingest, is refused now
 * when the URL names it literally; a host name is checked when a relay starts.
 */
export function checkSimulcastTarget(target: live.SimulcastTargetInput | undefined, at: string, invalid: string[], policy: OutboundPolicy): void {
  if (!target || !target.url) {
    invalid.push(`${at}.url: is required (the RTMP URL of the service, application included)`);
    return;
  }
  if (!URL.canParse(target.url) || !['rtmp:', 'rtmps:'].includes(new URL(target.url).protocol)) invalid.push(`${at}.url: must be an rtmp:// or rtmps:// URL`);
  else {
    const refusal = policy.targetUrlRefusal(target.url);
    if (refusal) invalid.push(`${at}.url: ${refusal}`);
  }
  invalid.push(...passthroughProblems(target.passthrough, `${at}.passthrough`));
}

export function throwIfInvalid(invalid: string[]): void {
  if (invalid.length > 0) throw DomainError.invalid(...invalid);
}
