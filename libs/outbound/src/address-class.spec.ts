import { classifyAddress } from './address-class';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['169.254.10.10', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['192.0.2.10', 'forbidden'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip).kind).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:0001::1', 'loopback'],
    ['2002:0808:0808::1', 'public'],
  ])('an IPv6 form carrying IPv4 (%s) is judged by that IPv4 address: %s', (ip, kind) => {
    expect(classifyAddress(ip).kind).toBe(kind);
  });

  it('says why an address is not public', () => {
    expect(classifyAddress('169.254.169.254').why).toBe('a cloud metadata address');
    expect(classifyAddress('127.0.0.1').why).toBe('a loopback address');
    expect(classifyAddress('8.8.8.8').why).toBe('');
  });
});
