import { ErrorCode } from '@platform/errors';
import { validCorsOrigin, validTimeout } from './upload-settings';

describe('upload settings', () => {
  it('takes a timeout from 60 to 604800 seconds, 3600 by default', () => {
    expect(validTimeout(undefined)).toBe(3600);
    expect(validTimeout(60)).toBe(60);
    expect(validTimeout(604_800)).toBe(604_800);
    for (const bad of [59, 604_801, 60.5, -1]) {
      expect(() => validTimeout(bad)).toThrow(
        expect.objectContaining({ code: ErrorCode.INVALID_PARAMETERS, messages: ['timeout: must be an integer from 60 to 604800 (seconds)'] }),
      );
    }
  });

  it('takes "*" or one origin as cors_origin, nothing when absent', () => {
    expect(validCorsOrigin(undefined)).toBeNull();
    expect(validCorsOrigin('')).toBeNull();
    expect(validCorsOrigin('*')).toBe('*');
    expect(validCorsOrigin('https://app.example.com')).toBe('https://app.example.com');
    expect(validCorsOrigin('https://app.example.com/')).toBe('https://app.example.com');
    expect(validCorsOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    // kept as a browser sends Origin: lowercase host, no default port
    expect(validCorsOrigin('HTTPS://App.Example.com:443/')).toBe('https://app.example.com');
    for (const bad of ['app.example.com', 'https://app.example.com/upload', 'ftp://x', 'https://a.com?x=1', `https://${'a'.repeat(2050)}.com`]) {
      expect(() => validCorsOrigin(bad)).toThrow(/cors_origin: must be "\*" or an origin/);
    }
  });
});
