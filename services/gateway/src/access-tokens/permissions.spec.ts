import { grants, parsePermissions, requiredPermission } from './permissions';

describe('permissions', () => {
  it.each([
    ['GET', '/system/v1/signing-keys', 'system:read'],
    ['POST', '/system/v1/signing-keys', 'system:write'],
    ['DELETE', '/system/v1/signing-keys/:SIGNING_KEY_ID', 'system:write'],
    ['GET', '/video/v1/signing-keys', 'system:read'],
    ['POST', '/video/v1/signing-keys', 'system:write'],
    ['GET', '/video/v1/signing-keys/:SIGNING_KEY_ID', 'system:read'],
    ['HEAD', '/video/v1/assets', 'video:read'],
    ['PUT', '/video/v1/playback-restrictions/:ID/referrer', 'video:write'],
    ['PATCH', '/video/v1/assets/:ASSET_ID', 'video:write'],
    ['GET', '/data/v1/video-views', 'data:read'],
    ['POST', '/data/v1/anything', 'data:write'],
    ['GET', '/VIDEO/v1/Signing-Keys', 'system:read'],
  ])('%s %s needs %s', (method, path, needed) => {
    expect(requiredPermission(method, path)).toBe(needed);
  });

  it('needs nothing outside the API prefixes and does not confuse look-alike prefixes', () => {
    expect(requiredPermission('GET', '/healthz')).toBeUndefined();
    expect(requiredPermission('GET', '/video/v1/signing-keys-archive')).toBe('video:read');
    expect(requiredPermission('GET', '/video/v10/assets')).toBeUndefined();
  });

  it('lets write include read, never the other way round or across scopes', () => {
    expect(grants(['video:write'], 'video:read')).toBe(true);
    expect(grants(['video:read'], 'video:write')).toBe(false);
    expect(grants(['system:write'], 'video:read')).toBe(false);
    expect(grants(['data:read'], 'data:read')).toBe(true);
  });

  it('parses the CLI list, refusing unknown entries', () => {
    expect(parsePermissions('video:write, data:read,system:write,video:write')).toEqual(['video:write', 'data:read', 'system:write']);
    expect(() => parsePermissions('video:admin,data:read')).toThrow(/video:admin/);
    expect(() => parsePermissions(' , ')).toThrow(/At least one permission/);
  });
});
