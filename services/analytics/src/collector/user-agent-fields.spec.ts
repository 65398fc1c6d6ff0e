import { parseUserAgent, UserAgentCache } from './user-agent-fields';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';

describe('parseUserAgent', () => {
  it('reads a desktop browser', () => {
    expect(parseUserAgent(CHROME_LINUX)).toEqual({
      viewer_user_agent: CHROME_LINUX,
      viewer_application_name: 'Chrome Headless',
      viewer_application_version: '140.0.0.0',
      viewer_os_family: 'Linux',
      viewer_os_version: '',
      viewer_device_category: 'desktop',
      viewer_device_manufacturer: '',
      viewer_device_model: '',
      viewer_device_name: '',
    });
  });

  it('reads phones and tablets, with their maker and model', () => {
    expect(parseUserAgent(IPHONE)).toMatchObject({
      viewer_application_name: 'Mobile Safari',
      viewer_os_family: 'iOS',
      viewer_os_version: '17.4',
      viewer_device_category: 'phone',
      viewer_device_manufacturer: 'Apple',
      viewer_device_model: 'iPhone',
      viewer_device_name: 'Apple iPhone',
    });
    expect(parseUserAgent(ANDROID)).toMatchObject({
      viewer_os_family: 'Android',
      viewer_os_version: '14',
      viewer_device_category: 'phone',
      viewer_device_manufacturer: 'Google',
    });
    expect(parseUserAgent(IPAD)).toMatchObject({ viewer_device_category: 'tablet', viewer_device_model: 'iPad' });
  });

  it('leaves everything empty without a user agent, and never throws on junk', () => {
    expect(parseUserAgent('')).toMatchObject({ viewer_application_name: '', viewer_device_category: '' });
    expect(() => parseUserAgent('\u0000'.repeat(5000) + '(((')).not.toThrow();
  });
});

describe('UserAgentCache', () => {
  it('parses an agent once, and forgets everything when full', () => {
    const cache = new UserAgentCache(2);
    const first = cache.fieldsOf(IPHONE);
    expect(cache.fieldsOf(IPHONE)).toBe(first);
    cache.fieldsOf(ANDROID);
    cache.fieldsOf(IPAD);
    expect(cache.fieldsOf(IPHONE)).not.toBe(first);
    expect(cache.fieldsOf(IPHONE)).toEqual(first);
  });
});
