/**
 * Issue 17 finding 8: IPv6 spellings that carry an IPv4 address of our own network (mapped, translated, NAT64,
 * IPv4-compatible, 6to4, Teredo) were accepted as webhook and OAuth token URLs. Property-tested over many spellings
 * of many inside addresses, through the URL parser as a merchant's URL goes, by the registration check and the
 * sender alike; and the sandbox's one rule for loopback, whatever the scheme or the spelling of the name.
 */
import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { classifyAddress, isAllowedAddress } from '../../shared/webhooks/address-policy.ts';
import { endpointUrlIssue } from '../../shared/webhooks/endpoint.ts';
import { createHttpPost, HttpPostError } from '../../shared/webhooks/http-post.ts';

const NAMES: Record<string, LookupAddress[]> = {
  'loopback.evil.test': [{ address: '127.0.0.1', family: 4 }],
  'nat64.evil.test': [{ address: '64:ff9b::a9fe:a9fe', family: 6 }],
  'sixtofour.evil.test': [{ address: '2002:7f00:1::', family: 6 }],
  'public.example.test': [{ address: '93.184.216.34', family: 4 }],
};
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: unknown, callback: (e: NodeJS.ErrnoException | null, a: LookupAddress[] | string, f?: number) => void) => {
    const answer = NAMES[hostname];
    if (!answer) return actual.lookup(hostname, options as never, callback as never);
    process.nextTick(() => ((options as { all?: boolean }).all ? callback(null, answer) : callback(null, answer[0]!.address, answer[0]!.family)));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const byte = fc.integer({ min: 0, max: 255 });
/** IPv4 addresses inside our network or the cloud's: loopback, private, shared, link-local, metadata. */
const insideV4 = fc.oneof(
  fc.tuple(fc.constant(127), byte, byte, byte),
  fc.tuple(fc.constant(10), byte, byte, byte),
  fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
  fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), byte, byte),
  fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
  fc.constantFrom([169, 254, 169, 254], [169, 254, 170, 2]),
);

const hex = (n: number) => n.toString(16);
/** One 16-bit group, spelled lower or upper case, with or without leading zeros. */
const group = (value: number) => fc.tuple(fc.boolean(), fc.boolean()).map(([upper, padded]) => (padded ? hex(value).padStart(4, '0') : hex(value))[upper ? 'toUpperCase' : 'toLowerCase']());

/** Eight groups written out, or compressed with :: over the longest run of zeros. */
function spell(words: number[]) {
  return fc.tuple(fc.tuple(...words.map(group)), fc.boolean()).map(([groups, compress]) => {
    if (!compress) return groups.join(':');
    let best = { at: -1, length: 0 };
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && words[j] === 0) j++;
      if (j - i > best.length) best = { at: i, length: j - i };
    }
    if (best.length < 2) return groups.join(':');
    return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.length).join(':')}`;
  });
}

/** Every IPv6 form that carries the IPv4 address v4 (the Teredo client inverted), some with a dotted tail. */
function carriers([a, b, c, d]: readonly number[]) {
  const high = (a! << 8) | b!;
  const low = (c! << 8) | d!;
  const dotted = `${a}.${b}.${c}.${d}`;
  return fc.oneof(
    spell([0, 0, 0, 0, 0, 0xffff, high, low]),
    fc.constant(`::ffff:${dotted}`),
    spell([0, 0, 0, 0, 0xffff, 0, high, low]),
    spell([0x64, 0xff9b, 0, 0, 0, 0, high, low]),
    fc.constant(`64:ff9b::${dotted}`),
    spell([0, 0, 0, 0, 0, 0, high, low]),
    fc.constant(`::${dotted}`),
    fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff })).chain(([subnet, host]) => spell([0x2002, high, low, subnet, 0, 0, 0, host])),
    fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff })).chain(([flags, port]) => spell([0x2001, 0, 0x5ef5, 0x79fd, flags, port, high ^ 0xffff, low ^ 0xffff])),
    fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff })).chain(([flags, port]) => spell([0x2001, 0, high, low, flags, port, 0x1234, 0x5678])),
    // ISATAP: any /64 (here public ones), interface id 0000:5efe or 0200:5efe then the IPv4 address.
    fc.tuple(fc.integer({ min: 0x2400, max: 0x2fff }), fc.integer({ min: 1, max: 0xffff }), fc.constantFrom(0, 0x200)).chain(([a, b, ul]) => spell([a, b, 0, 0, ul, 0x5efe, high, low])),
    fc.constant(`2606:4700:1:2::5efe:${dotted}`),
  );
}

/** The forms that carry v4 but do not name this machine (all but IPv4-mapped), which the sandbox must refuse too. */
function elsewhereCarriers([a, b, c, d]: readonly number[]) {
  const high = (a! << 8) | b!;
  const low = (c! << 8) | d!;
  const dotted = `${a}.${b}.${c}.${d}`;
  return fc.oneof(
    spell([0, 0, 0, 0, 0xffff, 0, high, low]),
    spell([0x64, 0xff9b, 0, 0, 0, 0, high, low]),
    spell([0, 0, 0, 0, 0, 0, high, low]),
    fc.constant(`::${dotted}`),
    fc.integer({ min: 0, max: 0xffff }).chain((host) => spell([0x2002, high, low, 0, 0, 0, 0, host])),
    spell([0x2001, 0, 0x5ef5, 0x79fd, 0, 0, high ^ 0xffff, low ^ 0xffff]),
    spell([0x2606, 0x4700, 1, 2, 0, 0x5efe, high, low]),
  );
}

const aws = { allowLoopbackHttp: false };

describe('IPv6 forms of inside IPv4 addresses', () => {
  it('are refused as webhook and OAuth token URLs and by the sender, whatever the spelling', async () => {
    const sender = createHttpPost({ allowLoopback: false, timeoutMs: 2_000 });
    await fc.assert(
      fc.asyncProperty(insideV4.chain((v4) => carriers(v4).map((address) => ({ v4, address }))), fc.constantFrom('', ':443', ':8443'), async ({ v4, address }, port) => {
        const url = `https://[${address}]${port}/hook`;
        // The URL parser rewrites the spelling (dotted tails to hex, zeros compressed): the check sees its result.
        const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
        expect(classifyAddress(host), `${url} carries ${v4.join('.')}`).not.toBe('public');
        expect(isAllowedAddress(host, { allowLoopback: false })).toBe(false);
        expect(endpointUrlIssue(url, aws), url).toBe('must point to a public address');
        const refused = await sender(url, { headers: {}, body: '{}' }).then(() => null, (e: unknown) => e);
        expect(refused instanceof HttpPostError && refused.reason).toBe('forbidden_address');
      }),
      { numRuns: 600 },
    );
  });

  it('refuses the spellings the probe found', () => {
    for (const url of ['https://[::a9fe:a9fe]', 'https://[::127.0.0.1]', 'https://[2002:a9fe:a9fe::]', 'https://[2002:7f00:1::]', 'https://[64:ff9b:1::a00:1]', 'https://[2001:0:a9fe:a9fe::]', 'https://[fec0::1]']) {
      expect(endpointUrlIssue(url, aws), url).toBe('must point to a public address');
    }
  });

  it('still accepts the same forms of public addresses', () => {
    for (const url of ['https://[::ffff:93.184.216.34]/', 'https://[64:ff9b::5db8:d822]/', 'https://[2002:5db8:d822::1]/', 'https://[2606:4700::1111]/']) {
      expect(endpointUrlIssue(url, aws), url).toBeNull();
    }
  });
});

describe('issue 21 finding 13: transition forms of loopback in the sandbox', () => {
  const sandbox = { allowLoopbackHttp: true };
  it('refuses the URLs the assessor registered (201 before): they embed loopback but route elsewhere', () => {
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[2002:7f00:1::]/hook', 'http://[::127.0.0.1]/hook', 'https://[64:ff9b::7f00:1]/hook', 'https://[2001:0:5ef5:79fd::80ff:fffe]/hook']) {
      expect(endpointUrlIssue(url, sandbox), url).not.toBeNull();
    }
  });

  it('refuses every form but IPv4-mapped that embeds an inside IPv4 address, loopback included, in the sandbox as in AWS', () => {
    fc.assert(
      fc.property(insideV4.chain((v4) => elsewhereCarriers(v4).map((address) => ({ v4, address }))), ({ v4, address }) => {
        const url = `https://[${address}]/hook`;
        expect(endpointUrlIssue(url, sandbox), `${url} carries ${v4.join('.')}`).toBe('must point to a public address');
        expect(endpointUrlIssue(url, aws), url).toBe('must point to a public address');
      }),
      { numRuns: 600 },
    );
  });

  it('judges ISATAP and SIIT by the address they embed', () => {
    expect(classifyAddress('2606:4700:1:2::5efe:10.1.2.3')).toBe('private');
    expect(classifyAddress('2606:4700:1:2:200:5efe:a9fe:a9fe')).toBe('metadata');
    expect(classifyAddress('::ffff:0:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('2606:4700:1:2::5efe:93.184.216.34')).toBe('public');
    expect(classifyAddress('2001:0:5ef5:79fd::a2b4:2ffe')).toBe('public');
  });
});

describe("the sandbox's one rule for loopback", () => {
  const sandbox = { allowLoopbackHttp: true };
  it('reaches its own machine named as such, over https and http alike; a name resolving there is refused for both', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'https://127.0.0.1:9/x', 'http://localhost:9/x', 'https://localhost:9/x', 'http://[::1]:9/x']) {
      expect(endpointUrlIssue(url, sandbox), url).toBeNull();
    }
    expect(endpointUrlIssue('http://loopback.evil.test:9/x', sandbox)).toBe('must be an https URL');
    expect(endpointUrlIssue('http://10.0.0.1/x', sandbox)).toBe('must be an https URL');
    expect(endpointUrlIssue('https://10.0.0.1/x', sandbox)).toBe('must point to a public address');

    // At sending, any other name is judged by what it resolves to: never this machine, whatever the scheme.
    const local = createHttpPost({ allowLoopback: true, timeoutMs: 2_000 });
    for (const url of ['https://loopback.evil.test:9/x', 'https://nat64.evil.test/x', 'https://sixtofour.evil.test/x', 'http://public.example.test/x']) {
      const error = await local(url, { headers: {}, body: '{}' }).then(() => null, (e: unknown) => e);
      expect(error instanceof HttpPostError && error.reason, url).toBe('forbidden_address');
    }
    for (const url of ['http://localhost:9/x', 'https://localhost:9/x', 'http://127.0.0.1:9/x']) {
      const error = await local(url, { headers: {}, body: '{}' }).then(() => null, (e: unknown) => e);
      // Allowed: the connection is attempted (nothing listens on port 9), not refused as an address.
      expect(error instanceof HttpPostError && error.reason, url).not.toBe('forbidden_address');
    }
  });

  it('is never in force in AWS: loopback by any name or scheme is refused', () => {
    for (const url of ['http://localhost/x', 'https://localhost/x', 'https://127.0.0.1/x', 'http://loopback.evil.test/x']) {
      expect(endpointUrlIssue(url, aws), url).not.toBeNull();
    }
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: false, protocol: 'https:' })).toBe(false);
  });
});
