import { describe, expect, it } from 'vitest';
import {
  firewallRuleInput,
  firewallSave,
  firewallMessages as m,
  portSpan,
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
