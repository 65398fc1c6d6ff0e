import { UAParser } from 'ua-parser-js';

/** What the collector derives from the player's User-Agent header, named as Mux's view fields. */
export interface UserAgentFields {
  viewer_user_agent: string;
  viewer_application_name: string;
  viewer_application_version: string;
  viewer_os_family: string;
  viewer_os_version: string;
  viewer_device_category: string;
  viewer_device_manufacturer: string;
  viewer_device_model: string;
  viewer_device_name: string;
}

/** ua-parser-js device types → Mux's categories; no type means a desktop browser. */
const CATEGORIES: Record<string, string> = { mobile: 'phone', tablet: 'tablet', smarttv: 'tv', console: 'console', wearable: 'wearable', embedded: 'embedded' };

export function parseUserAgent(userAgent: string): UserAgentFields {
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const manufacturer = device.vendor ?? '';
  const model = device.model ?? '';
  return {
    viewer_user_agent: userAgent,
    viewer_application_name: browser.name ?? '',
    viewer_application_version: browser.version ?? '',
    viewer_os_family: os.name ?? '',
    viewer_os_version: os.version ?? '',
    viewer_device_category: userAgent === '' ? '' : (CATEGORIES[device.type ?? ''] ?? 'desktop'),
    viewer_device_manufacturer: manufacturer,
    viewer_device_model: model,
    viewer_device_name: [manufacturer, model].filter(Boolean).join(' '),
  };
}

/**
 * Parsing costs tens of microseconds and a collector sees few distinct agents (one per browser build),
 * so results are kept; the map is cleared when full so varied agents cannot grow it without bound.
 */
export class UserAgentCache {
  private readonly entries = new Map<string, UserAgentFields>();

  constructor(private readonly limit = 5_000) {}

  fieldsOf(userAgent: string): UserAgentFields {
    let fields = this.entries.get(userAgent);
    if (!fields) {
      fields = parseUserAgent(userAgent);
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(userAgent, fields);
    }
    return fields;
  }
}
