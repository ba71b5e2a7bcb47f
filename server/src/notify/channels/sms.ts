import { createHmac, randomUUID } from 'node:crypto';
import type { ChannelConfig } from '@sitewatch/contract/notify';
import {
  type Channel,
  ChannelError,
  type Destination,
  httpCall,
  type NoticeMessage,
  parseJsonObject,
} from '../channel.ts';

/** RFC 3986 encoding as Aliyun's RPC signature wants it. */
const percent = (s: string) =>
  encodeURIComponent(s)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Canonical query of Aliyun's RPC signature (version 1.0): sorted, percent-encoded pairs. */
export const aliyunCanonical = (params: Record<string, string>): string =>
  Object.keys(params)
    .sort()
    .map((k) => `${percent(k)}=${percent(params[k] ?? '')}`)
    .join('&');

/** Signature = base64(HMAC-SHA1(secret + "&", "GET&%2F&" + percent(canonical query))). */
export const aliyunSignature = (secret: string, method: string, params: Record<string, string>): string =>
  createHmac('sha1', `${secret}&`)
    .update(`${method}&${percent('/')}&${percent(aliyunCanonical(params))}`)
    .digest('base64');

/** Replaces {name} placeholders of a body template by the notice's fields. */
const fill = (template: string, message: NoticeMessage, to: Destination) =>
  template.replace(/\{(\w+)\}/g, (all, key: string) => {
    if (key === 'phone') return to.address;
    if (key === 'subject') return message.subject;
    if (key === 'text') return message.text;
    const v = message.fields[key];
    return v === undefined || v === null ? all : String(v);
  });

/**
 * The request of a gateway: Aliyun-style (SendSms for SMS, SingleCallByTts for voice) signed in
 * the query, or `none`: a JSON POST of the body template to the URL.
 */
const gatewaySend = async (
  kind: 'sms' | 'voice',
  config: ChannelConfig,
  message: NoticeMessage,
  to: Destination,
): Promise<string> => {
  if (!to.address) throw new ChannelError('no number');
  const templateParam = config.body_template
    ? fill(config.body_template, message, to)
    : JSON.stringify({ text: message.text.slice(0, 300) });
  if (config.sign_scheme === 'none') {
    const res = await httpCall(config.url, {
      body: JSON.stringify({ to: to.address, kind, template: config.template_code, params: templateParam }),
      timeoutMs: config.timeout_ms,
    });
    return `HTTP ${res.status}`;
  }
  const common: Record<string, string> = {
    AccessKeyId: config.access_key_id,
    Format: 'JSON',
    RegionId: 'cn-hangzhou',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  const params: Record<string, string> =
    kind === 'sms'
      ? {
          ...common,
          Action: 'SendSms',
          Version: '2017-05-25',
          PhoneNumbers: to.address,
          SignName: config.sign_name,
          TemplateCode: config.template_code,
          TemplateParam: templateParam,
        }
      : {
          ...common,
          Action: 'SingleCallByTts',
          Version: '2017-05-25',
          CalledNumber: to.address,
          TtsCode: config.template_code,
          TtsParam: templateParam,
        };
  const signature = aliyunSignature(config.secret, 'GET', params);
  const url = `${config.url.replace(/\?.*$/, '')}?Signature=${percent(signature)}&${aliyunCanonical(params)}`;
  const res = await httpCall(url, { method: 'GET', timeoutMs: config.timeout_ms });
  const answer = parseJsonObject(res.text);
  if (answer.Code !== 'OK') throw new ChannelError(`Code ${String(answer.Code).slice(0, 40)}`);
  return `Code OK ${String(answer.BizId ?? answer.CallId ?? '')}`.trim();
};

/** SMS gateway (HTTP template; Aliyun SendSms signing first). */
export const smsChannel: Channel = {
  kind: 'sms',
  send(settings, message, to) {
    if (settings.kind !== 'sms') throw new ChannelError('not an SMS channel');
    return gatewaySend('sms', settings.config, message, to);
  },
};

/** Voice gateway (text-to-speech call; Aliyun SingleCallByTts signing first). */
export const voiceChannel: Channel = {
  kind: 'voice',
  send(settings, message, to) {
    if (settings.kind !== 'voice') throw new ChannelError('not a voice channel');
    return gatewaySend('voice', settings.config, message, to);
  },
};
