import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OutboundGuard } from '@platform/outbound';
import { ApiError } from '../errors/api-error';
import { AssetSettingsBody, isClipUrl } from '../assets/assets.schemas';

/** Every URL the platform would fetch for these asset settings (main, track and overlay inputs), with its field. */
export function inputUrlsOf(body: AssetSettingsBody): Array<{ field: string; url: string }> {
  const field = body.inputs !== undefined ? 'inputs' : 'input';
  const given = body.inputs ?? body.input;
  if (typeof given === 'string') return isClipUrl(given) ? [] : [{ field, url: given }];
  return (given ?? []).flatMap((input, i) => (input.url !== undefined && !isClipUrl(input.url) ? [{ field: `${field}[${i}].url`, url: input.url }] : []));
}

/**
 * The create-time half of the outbound guard (OUTBOUND_ALLOW): a URL whose scheme is not http(s), or
 * whose host is an IP literal or `localhost` name the platform refuses to connect to, is a 400 naming
 * the field, and nothing is created. A host name is checked when the URL is fetched (after DNS), where
 * a refusal makes the asset `errored`. The one place an OutboundRefusedError becomes an HTTP error.
 */
@Injectable()
export class OutboundUrls {
  private readonly guard: OutboundGuard;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.guard = new OutboundGuard(config.outboundAllow);
  }

  /** `prefix` names where the settings sit in the body (`new_asset_settings.`). */
  checkAssetInputs(body: AssetSettingsBody, prefix = ''): void {
    this.check(inputUrlsOf(body).map(({ field, url }) => ({ field: `${prefix}${field}`, url })));
  }

  /** Any URLs the platform will connect to (a slate image, a simulcast target with `rtmp`/`rtmps`), each named by its field. */
  check(urls: Array<{ field: string; url: string }>, schemes: readonly string[] = ['http', 'https']): void {
    const refused = urls.flatMap(({ field, url }) => {
      const reason = this.guard.urlRefusal(url, schemes);
      return reason ? [`${field}: ${reason}`] : [];
    });
    if (refused.length > 0) throw ApiError.invalid(...refused);
  }
}
