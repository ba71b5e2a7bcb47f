import { createHmac } from 'node:crypto';
import { type Channel, ChannelError, httpCall, parseJsonObject } from '../channel.ts';

/** DingTalk robot signature: base64(HMAC-SHA256(secret, `${timestamp}\n${secret}`)), ms timestamp. */
export const dingtalkSign = (secret: string, timestampMs: string): string =>
  createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');

/** DingTalk custom robot: text message; with a secret, `timestamp` and `sign` in the query. */
export const dingtalkChannel: Channel = {
  kind: 'dingtalk',
  async send(settings, message) {
    if (settings.kind !== 'dingtalk') throw new ChannelError('not a DingTalk channel');
    const url = new URL(settings.config.url);
    if (settings.config.secret) {
      const ts = String(Date.now());
      url.searchParams.set('timestamp', ts);
      url.searchParams.set('sign', dingtalkSign(settings.config.secret, ts));
    }
    const body = JSON.stringify({ msgtype: 'text', text: { content: `${message.subject}\n${message.text}` } });
    const res = await httpCall(url.toString(), { body, timeoutMs: settings.config.timeout_ms });
    const answer = parseJsonObject(res.text);
    if (answer.errcode !== 0) throw new ChannelError(`errcode ${String(answer.errcode)}`);
    return 'errcode 0';
  },
};
