import { describe, expect, it } from 'vitest';
import { parseListening } from './helper.ts';
import { newlyClosedGuardedPorts, type RenderRule, refusesIncoming, renderRuleset } from './render.ts';

const r = (patch: Partial<RenderRule>): RenderRule => ({
  direction: 'in',
  source: '0.0.0.0/0',
  port: '80:80',
  authorised: true,
  Disabled: false,
  ...patch,
});

describe('renderRuleset', () => {
  it('writes the whole table in one transaction: made, deleted, written anew', () => {
    const text = renderRuleset(true, [
      r({ source: '10.0.0.0/8', port: '22:22' }),
      r({ source: '0.0.0.0/0', port: '22:22', authorised: false }),
      r({ source: '192.168.1.10-192.168.1.20', port: '8000:8100', authorised: false }),
      r({ direction: 'out', source: '1.2.3.4', port: '25:25', authorised: false }),
      r({ source: '172.16.5.9/12', port: '443:443', Disabled: true }),
    ]);
    expect(text).toBe(
      [
        'table inet sitewatch',
        'delete table inet sitewatch',
        'table inet sitewatch {',
        '\tchain input {',
        '\t\ttype filter hook input priority filter; policy accept;',
        '\t\tct state established,related accept',
        '\t\tip saddr 10.0.0.0/8 meta l4proto { tcp, udp } th dport 22 accept comment "rule 1"',
        '\t\tmeta l4proto tcp th dport 22 reject with tcp reset comment "rule 2"',
        '\t\tmeta l4proto udp th dport 22 reject comment "rule 2"',
        '\t\tip saddr 192.168.1.10-192.168.1.20 meta l4proto tcp th dport 8000-8100 reject with tcp reset comment "rule 3"',
        '\t\tip saddr 192.168.1.10-192.168.1.20 meta l4proto udp th dport 8000-8100 reject comment "rule 3"',
        '\t}',
        '\tchain output {',
        '\t\ttype filter hook output priority filter; policy accept;',
        '\t\tct state established,related accept',
        '\t\tip daddr 1.2.3.4 meta l4proto tcp th dport 25 reject with tcp reset comment "rule 4"',
        '\t\tip daddr 1.2.3.4 meta l4proto udp th dport 25 reject comment "rule 4"',
        '\t}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('normalises a CIDR block to its network', () => {
    expect(renderRuleset(true, [r({ source: '172.16.5.9/12' })])).toContain('ip saddr 172.16.0.0/12 ');
  });

  it('writes IPv6 sources as ip6 matches: one address, a block from its network, a range; ::/0 matches all', () => {
    expect(renderRuleset(true, [r({ source: 'fd00:0::1' })])).toContain('ip6 saddr fd00::1 meta l4proto');
    expect(renderRuleset(true, [r({ source: '2001:db8::77/32' })])).toContain('ip6 saddr 2001:db8::/32 ');
    expect(renderRuleset(true, [r({ source: 'fd00::1-fd00::ff' })])).toContain('ip6 saddr fd00::1-fd00::ff ');
    expect(renderRuleset(true, [r({ source: 'fd00::9', direction: 'out' })])).toContain('ip6 daddr fd00::9 ');
    expect(renderRuleset(true, [r({ source: '::/0' })])).toContain('\t\tmeta l4proto');
  });

  it('a disabled firewall removes the table and nothing else', () => {
    expect(renderRuleset(false, [r({})])).toBe('table inet sitewatch\ndelete table inet sitewatch\n');
  });

  it('refuses to render a rule the contract would refuse (no text reaches nft unchecked)', () => {
    expect(() => renderRuleset(true, [r({ source: '1.2.3.4; flush ruleset' })])).toThrow(/invalid rule/);
    expect(() => renderRuleset(true, [r({ port: '22' })])).toThrow(/invalid rule/);
  });
});

describe('refusesIncoming', () => {
  const rules = [
    r({ source: '10.0.0.5', port: '80:80' }),
    r({ source: '10.0.0.0/24', port: '1:65535', authorised: false }),
  ];
  it('the first matching rule decides', () => {
    expect(refusesIncoming(true, rules, '10.0.0.5', 80)).toBe(false);
    expect(refusesIncoming(true, rules, '10.0.0.6', 80)).toBe(true);
    expect(refusesIncoming(true, rules, '::ffff:10.0.0.6', 80)).toBe(true);
    expect(refusesIncoming(true, rules, '10.0.1.6', 80)).toBe(false);
  });
  it('a disabled firewall, a disabled rule or an outgoing rule refuses nothing', () => {
    expect(refusesIncoming(false, rules, '10.0.0.6', 80)).toBe(false);
    expect(refusesIncoming(true, [r({ authorised: false, Disabled: true })], '10.0.0.6', 80)).toBe(false);
    expect(refusesIncoming(true, [r({ authorised: false, direction: 'out' })], '10.0.0.6', 80)).toBe(false);
  });
  it('{ip}/0 covers an IPv6 caller too', () => {
    expect(refusesIncoming(true, [r({ authorised: false })], '::1', 80)).toBe(true);
  });
});

describe('newlyClosedGuardedPorts (002 §5.3: closing 80 or 22 asks)', () => {
  it('names 80 and 22 when an added rule refuses them, and asks nothing again for a kept rule', () => {
    const closing = r({ port: '1:1024', authorised: false });
    expect(newlyClosedGuardedPorts([], [closing])).toEqual([22, 80]);
    expect(newlyClosedGuardedPorts([closing], [closing])).toEqual([]);
    expect(newlyClosedGuardedPorts([], [r({ port: '443:443', authorised: false })])).toEqual([]);
    expect(newlyClosedGuardedPorts([], [r({ port: '22:22', authorised: false, Disabled: true })])).toEqual([]);
    expect(newlyClosedGuardedPorts([], [r({ port: '22:22', authorised: false, direction: 'out' })])).toEqual([]);
  });
});

describe('parseListening', () => {
  it('reads ss -Hltnp lines', () => {
    const text = [
      'LISTEN 0      511          0.0.0.0:80        0.0.0.0:*    users:(("node",pid=12,fd=20))',
      'LISTEN 0      128             [::]:22           [::]:*    users:(("sshd",pid=1,fd=4))',
      'LISTEN 0      4096   127.0.0.53%lo:53        0.0.0.0:*',
    ].join('\n');
    expect(parseListening(text)).toEqual([
      { protocol: 'tcp', address: '[::]', port: 22, process: 'sshd' },
      { protocol: 'tcp', address: '127.0.0.53', port: 53, process: '' },
      { protocol: 'tcp', address: '0.0.0.0', port: 80, process: 'node' },
    ]);
  });
  it('reads ss -Hlunp lines as UDP', () => {
    const text = [
      'UNCONN 0      0            0.0.0.0:161       0.0.0.0:*    users:(("snmpd",pid=7,fd=6))',
      'UNCONN 0      0        [::1]:323          [::]:*    users:(("chronyd",pid=3,fd=5))',
    ].join('\n');
    expect(parseListening(text, 'udp')).toEqual([
      { protocol: 'udp', address: '0.0.0.0', port: 161, process: 'snmpd' },
      { protocol: 'udp', address: '[::1]', port: 323, process: 'chronyd' },
    ]);
  });
});
