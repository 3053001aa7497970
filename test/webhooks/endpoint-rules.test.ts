import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress } from '../../shared/webhooks/address-policy.ts';
import { applyAuthChange, endpointUrlIssue } from '../../shared/webhooks/endpoint.ts';
import { outboundAuthHeaders } from '../../shared/webhooks/outbound-auth.ts';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['example.com', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('allows loopback only when asked (the sandbox)', () => {
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: false })).toBe(false);
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('endpointUrlIssue', () => {
  const aws = { allowLoopbackHttp: false };
  const sandbox = { allowLoopbackHttp: true };
  it('wants https to a public host in AWS', () => {
    expect(endpointUrlIssue('https://hooks.merchant.example/x', aws)).toBeNull();
    expect(endpointUrlIssue('http://hooks.merchant.example/x', aws)).toBe('must be an https URL');
    expect(endpointUrlIssue('https://localhost/x', aws)).toBe('must point to a public address');
    expect(endpointUrlIssue('https://[::1]/x', aws)).toBe('must point to a public address');
    expect(endpointUrlIssue('https://user:pw@hooks.example/x', aws)).toMatch(/credentials/);
  });
  it('lets the sandbox use http on the loopback interface only', () => {
    expect(endpointUrlIssue('http://127.0.0.1:4999/x', sandbox)).toBeNull();
    expect(endpointUrlIssue('http://localhost:4999/x', sandbox)).toBeNull();
    expect(endpointUrlIssue('http://hooks.merchant.example/x', sandbox)).toBe('must be an https URL');
    expect(endpointUrlIssue('http://10.0.0.1/x', sandbox)).toBe('must be an https URL');
  });
});

describe('applyAuthChange', () => {
  const none = { settings: { authType: 'none' as const, authHeaderName: null, oauthTokenUrl: null, oauthClientId: null, oauthScope: null }, credentials: {} };

  it('keeps omitted credentials, rotates sent ones, and drops those the new type does not use', () => {
    const bearer = applyAuthChange(none, { authType: 'bearer', authToken: 'a' });
    expect(bearer).toMatchObject({ issues: [], credentials: { authToken: 'a' } });
    expect(applyAuthChange(bearer, {}).credentials).toEqual({ authToken: 'a' });
    expect(applyAuthChange(bearer, { authToken: 'b' }).credentials).toEqual({ authToken: 'b' });
    const basic = applyAuthChange(bearer, { authType: 'basic', authUsername: 'u', authPassword: 'p' });
    expect(basic).toMatchObject({ issues: [], credentials: { authUsername: 'u', authPassword: 'p' } });
  });

  it('names the missing or foreign field', () => {
    expect(applyAuthChange(none, { authType: 'bearer' }).issues).toEqual([{ field: 'authToken', message: 'authToken is required with authType bearer.' }]);
    expect(applyAuthChange(none, { authToken: 'x' }).issues[0]?.field).toBe('authToken');
    const oauth = applyAuthChange(none, { authType: 'oauth2', oauthTokenUrl: 'https://t.example', oauthClientId: 'c', oauthClientSecret: 's', oauthScope: 'w' });
    expect(oauth).toMatchObject({ issues: [], settings: { oauthScope: 'w' } });
    expect(applyAuthChange(oauth, { oauthClientSecret: '' }).issues[0]?.field).toBe('oauthClientSecret');
    expect(applyAuthChange(oauth, { oauthScope: '' })).toMatchObject({ issues: [], settings: { oauthScope: null } });
  });
});

describe('outboundAuthHeaders', () => {
  it('builds the header of each authType', () => {
    expect(outboundAuthHeaders({ authType: 'none', authHeaderName: null }, {})).toEqual({});
    expect(outboundAuthHeaders({ authType: 'bearer', authHeaderName: null }, { authToken: 't' })).toEqual({ Authorization: 'Bearer t' });
    expect(outboundAuthHeaders({ authType: 'basic', authHeaderName: null }, { authUsername: 'u', authPassword: 'p' })).toEqual({ Authorization: 'Basic dTpw' });
    expect(outboundAuthHeaders({ authType: 'api_key', authHeaderName: 'X-Key' }, { authToken: 't' })).toEqual({ 'X-Key': 't' });
    expect(outboundAuthHeaders({ authType: 'oauth2', authHeaderName: null }, {}, 'acc')).toEqual({ Authorization: 'Bearer acc' });
  });
});
