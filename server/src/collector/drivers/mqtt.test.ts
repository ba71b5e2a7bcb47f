import { isTopicFilter } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { commandPayload, parseMessage, readingOf, subscriptionFilters, topicMatches } from './mqtt.ts';

describe('MQTT topic filters', () => {
  it.each([
    ['a/b/c', 'a/b/c', true],
    ['a/+/c', 'a/b/c', true],
    ['a/+/c', 'a/b/x/c', false],
    ['a/+', 'a/', true],
    ['a/#', 'a', true],
    ['a/#', 'a/b/c', true],
    ['#', 'a/b', true],
    ['#', '$SYS/broker/load', false],
    ['+/broker/load', '$SYS/broker/load', false],
    ['$SYS/#', '$SYS/broker/load', true],
    ['a/b', 'a/b/c', false],
    ['a/b/c', 'a/b', false],
  ] as const)('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });

  it('accepts + and # only as whole levels, # only last', () => {
    for (const ok of ['a/b', '+', '#', 'a/+/c', 'a/#', '+/+/#', 'sitewatch/{device_id}/state']) {
      expect(isTopicFilter(ok), ok).toBe(true);
    }
    for (const bad of ['a/#/b', 'a/b#', 'a/b+', '+a/b', '##', 'a/\u0000']) expect(isTopicFilter(bad), bad).toBe(false);
  });

  it('subscribes to each filter once and not to one another covers', () => {
    expect(subscriptionFilters(['s/1/t', 's/+/t', 's/1/t', 'x/y'])).toEqual(['s/+/t', 'x/y']);
    expect(subscriptionFilters(['s/#', 's/+/t', 's', 's/a/b/c'])).toEqual(['s/#']);
    expect(subscriptionFilters(['s/+/t', 's/a/+'])).toEqual(['s/+/t', 's/a/+']);
  });

  it('fills the command payload template', () => {
    expect(commandPayload(undefined, 23.5, 7, 9)).toBe('{"value":23.5}');
    expect(commandPayload('{"set":{value},"d":{device_id},"i":{item_id}}', -1, 7, 9)).toBe('{"set":-1,"d":7,"i":9}');
    expect(commandPayload('{value}', 1e21, 1, 1)).toBe('1e+21');
  });
});

describe('MQTT payloads', () => {
  it('a payload that is not JSON makes the items with a path unknown with the parser message', () => {
    for (const bad of ['{"temp": 23.4, "hum":', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x7b])]) {
      const payload = parseMessage(bad);
      for (const path of ['temp', 'hum'])
        expect(readingOf(payload, path)).toMatchObject({
          ok: false,
          reason: expect.stringMatching(/^payload is not valid JSON: ./),
        });
    }
  });

  it('reads good JSON at a path, and a bare number or number text without one', () => {
    const json = parseMessage('{"temp": 23.4, "hum": 41}');
    expect(readingOf(json, 'temp')).toEqual({ ok: true, value: 23.4 });
    expect(readingOf(json, 'missing')).toBeNull();
    expect(readingOf(parseMessage('21.5'), '')).toEqual({ ok: true, value: 21.5 });
    expect(readingOf(parseMessage(' 7.5 '), '')).toEqual({ ok: true, value: 7.5 });
    expect(readingOf(parseMessage('12,5'), '')).toEqual({ ok: false, reason: 'text is not a number: "12,5"' });
  });
});
