import { describe, expect, it } from 'vitest';
import {
  firewallRuleInput,
  firewallSave,
  ipv6Number,
  ipv6Text,
  firewallMessages as m,
  portSpan,
  refusesIncoming,
  source6Span,
  sourceIsEverything,
  sourceProblem,
  sourceSpan,
} from './firewall.ts';
import en from './locales/en_us.json' with { type: 'json' };
import zh from './locales/zh_cn.json' with { type: 'json' };

const rule = (patch: Record<string, unknown>) =>
  firewallRuleInput.safeParse({ direction: 'in', source: '10.0.0.1', port: '80:80', authorised: true, ...patch });
const messageOf = (patch: Record<string, unknown>) => {
  const parsed = rule(patch);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe('firewall source address (002 §5.3)', () => {
  it.each([
    ['10.0.0.1', null],
    ['0.0.0.0/0', null],
    ['192.168.1.7/0', null],
    ['192.168.1.0/24', null],
    ['10.0.0.1-10.0.0.9', null],
    [' 10.0.0.1 ', null],
    ['', m.sourceEmpty],
    ['   ', m.sourceEmpty],
    ['abc', m.sourceFormat],
    ['10.0.0', m.sourceFormat],
    ['10.0.0.1/24/3', m.sourceFormat],
    ['10.0.0.256', m.ipFormat],
    ['300.0.0.0/8', m.ipFormat],
    ['10.0.0.0/33', m.maskFormat],
    ['10.0.0.0/x', m.maskFormat],
    ['10.0.0.1-10.0.0', m.segmentFormat],
    ['10.0.0.1-10.0.0.2-10.0.0.3', m.segmentFormat],
    ['10.0.0.1-10.0.0.300', m.ipFormat],
    ['10.0.0.9-10.0.0.1', m.segmentOrder],
  ])('%j → %s', (source, key) => {
    expect(sourceProblem(source)).toBe(key);
    expect(messageOf({ source })).toBe(key);
  });

  it('refuses a missing source with the empty message', () => {
    expect(
      firewallRuleInput.safeParse({ direction: 'in', port: '1:2', authorised: true }).error?.issues[0]?.message,
    ).toBe(m.sourceEmpty);
  });

  it('spans: a CIDR block from its network, {ip}/0 everything, a range as written', () => {
    expect(sourceSpan('192.168.1.77/24')).toEqual([0xc0a80100, 0xc0a801ff]);
    expect(sourceSpan('8.8.8.8/0')).toEqual([0, 0xffff_ffff]);
    expect(sourceSpan('10.0.0.1-10.0.0.9')).toEqual([0x0a000001, 0x0a000009]);
  });
});

describe('firewall IPv6 sources', () => {
  it.each([
    ['fd00::1', null],
    ['2001:db8::/32', null],
    ['::/0', null],
    ['fd00::1-fd00::ff', null],
    ['::ffff:10.0.0.1', null],
    ['1:2:3:4:5:6:7:8', null],
    ['fd00::1::2', m.sourceFormat],
    ['fd00::g', m.sourceFormat],
    ['1:2:3:4:5:6:7:8:9', m.sourceFormat],
    ['fd00::1%eth0', m.sourceFormat],
    ['fd00::/129', m.mask6Format],
    ['fd00::/x', m.mask6Format],
    ['fd00::ff-fd00::1', m.segmentOrder],
    ['fd00::1-10.0.0.1', m.segmentFormat],
  ])('%j → %s', (source, key) => {
    expect(sourceProblem(source)).toBe(key);
    expect(messageOf({ source })).toBe(key);
  });

  it('reads and writes addresses, spans blocks from their network', () => {
    expect(ipv6Number('::1')).toBe(1n);
    expect(ipv6Number('::ffff:10.0.0.1')).toBe(0xffff0a000001n);
    expect(ipv6Text(ipv6Number('fd00:0:0:0:0:0:0:1')!)).toBe('fd00::1');
    expect(ipv6Text(ipv6Number('2001:db8:0:0:1:0:0:1')!)).toBe('2001:db8::1:0:0:1');
    expect(ipv6Text(0n)).toBe('::');
    expect(source6Span('fd00::77/64')).toEqual([0xfd00n << 112n, (0xfd00n << 112n) + (1n << 64n) - 1n]);
    expect(sourceIsEverything('::/0')).toBe(true);
    expect(sourceIsEverything('0.0.0.0/0')).toBe(true);
    expect(sourceIsEverything('fd00::/8')).toBe(false);
  });

  it('tells whether an IPv6 client is refused (the lockout check)', () => {
    const rules = [
      { direction: 'in' as const, source: 'fd00::/64', port: '22:22', authorised: false, Disabled: false },
    ];
    expect(refusesIncoming(true, rules, 'fd00::5', 22)).toBe(true);
    expect(refusesIncoming(true, rules, 'fd01::5', 22)).toBe(false);
    expect(refusesIncoming(true, rules, '10.0.0.5', 22)).toBe(false);
    expect(refusesIncoming(true, rules, '::ffff:10.0.0.5', 22)).toBe(false);
  });
});

describe('firewall port (002 §5.3)', () => {
  it.each([
    ['80:80', [80, 80]],
    ['1:65535', [1, 65535]],
    ['8000:8080', [8000, 8080]],
    ['80', null],
    ['0:80', null],
    ['80:65536', null],
    ['90:80', null],
    ['a:b', null],
    ['', null],
  ])('%j', (port, span) => {
    expect(portSpan(port)).toEqual(span);
    expect(messageOf({ port })).toBe(span ? null : m.portFormat);
  });
});

describe('firewall messages', () => {
  it('are the spec’s words in English and have a text in Chinese', () => {
    expect(en.firewall.portFormat).toBe('The format of the port number is incorrect!');
    expect(en.firewall.sourceEmpty).toBe('Source address cannot be empty!');
    expect(en.firewall.sourceFormat).toBe('The format of the source address is incorrect!');
    for (const key of Object.values(m)) {
      const name = key.split('.')[1] as keyof typeof zh.firewall;
      expect(zh.firewall[name]).toMatch(/！$/);
    }
  });

  it('the save needs the verification password', () => {
    expect(firewallSave.safeParse({ rules: [] }).error?.issues[0]?.message).toBe('users.verifyPasswordEmpty');
    expect(firewallSave.safeParse({ rules: [], verify_password: '' }).error?.issues[0]?.message).toBe(
      'users.verifyPasswordEmpty',
    );
  });
});
