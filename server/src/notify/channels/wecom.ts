import { type Channel, ChannelError, httpCall, parseJsonObject } from '../channel.ts';

/**
 * WeCom (企业微信) group robot: text message to the robot's URL, whose `key` is its credential
 * (WeCom robots have no separate signature).
 */
export const wecomChannel: Channel = {
  kind: 'wecom',
  async send(settings, message) {
    if (settings.kind !== 'wecom') throw new ChannelError('not a WeCom channel');
    const body = JSON.stringify({ msgtype: 'text', text: { content: `${message.subject}\n${message.text}` } });
    const res = await httpCall(settings.config.url, { body, timeoutMs: settings.config.timeout_ms });
    const answer = parseJsonObject(res.text);
    if (answer.errcode !== 0) throw new ChannelError(`errcode ${String(answer.errcode)}`);
    return 'errcode 0';
  },
};
