import { isTopicFilter } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { commandPayload, subscriptionFilters, topicMatches } from './mqtt.ts';

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
