import type { ChannelConfig, EmailService } from '@sitewatch/contract/notify';
import { channelConfig } from '@sitewatch/contract/notify';
import { afterAll, beforeAll, describe } from 'vitest';
import { createChannels } from '../src/notify/channels/index.ts';
import { describeChannelConformance } from './conformance/channel.suite.ts';
import { type HttpPeer, type SmtpPeer, startHttpPeer, startSmtpPeer } from './helpers/notify-peers.ts';

const secret = 'SECtest-secret-0123456789';
const wecomKey = '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa';
// The peers listen on loopback, which the outbound guard refuses unless the administrator allows it.
const channels = createChannels(async () => ({ allow: ['127.0.0.0/8', '::1'], deny: [] }));

describe('notification channels against local peers', () => {
  let http: HttpPeer;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    http = await startHttpPeer(secret, wecomKey);
    smtp = await startSmtpPeer('alarm@example.com', 'mail-pass');
  });
  afterAll(async () => {
    await http?.close();
    await smtp?.close();
  });
  const cfg = (path: string, extra: Partial<ChannelConfig> = {}): ChannelConfig =>
    channelConfig.parse({ url: `${http.url}${path}`, secret, timeout_ms: 1000, ...extra });
  const accepted = (path: string) => async () =>
    http.accepted.filter((r) => r.path === path).map((r) => decodeURIComponentSafe(r.body));
  const decodeURIComponentSafe = (s: string) => {
    try {
      return JSON.stringify(JSON.parse(s));
    } catch {
      return s;
    }
  };
  const noAddress = () => ({ address: '', name: 'robot' });

  describeChannelConformance('webhook', {
    channel: () => channels.webhook,
    settings: () => ({ kind: 'webhook', config: cfg('/webhook') }),
    to: noAddress,
    received: async () => http.accepted.filter((r) => r.path === '/webhook').map((r) => r.body),
    refused: () => ({ kind: 'webhook', config: cfg('/webhook', { secret: 'wrong' }) }),
    silent: () => ({ kind: 'webhook', config: cfg('/slow') }),
  });
  describeChannelConformance('DingTalk robot', {
    channel: () => channels.dingtalk,
    settings: () => ({ kind: 'dingtalk', config: cfg('/dingtalk?access_token=abc') }),
    to: noAddress,
    received: async () => (await accepted('/dingtalk')()).map((b) => JSON.parse(b).text.content),
    refused: () => ({ kind: 'dingtalk', config: cfg('/dingtalk?access_token=abc', { secret: 'SECwrong' }) }),
    silent: () => ({ kind: 'dingtalk', config: cfg('/slow') }),
  });
  describeChannelConformance('WeCom robot', {
    channel: () => channels.wecom,
    settings: () => ({ kind: 'wecom', config: cfg(`/wecom?key=${wecomKey}`, { secret: '' }) }),
    to: noAddress,
    received: async () => (await accepted('/wecom')()).map((b) => JSON.parse(b).text.content),
    refused: () => ({ kind: 'wecom', config: cfg('/wecom?key=wrong', { secret: '' }) }),
    silent: () => ({ kind: 'wecom', config: cfg('/slow') }),
  });
  describeChannelConformance('Feishu robot', {
    channel: () => channels.feishu,
    settings: () => ({ kind: 'feishu', config: cfg('/feishu') }),
    to: noAddress,
    received: async () => (await accepted('/feishu')()).map((b) => JSON.parse(b).content.text),
    refused: () => ({ kind: 'feishu', config: cfg('/feishu', { secret: 'other' }) }),
    silent: () => ({ kind: 'feishu', config: cfg('/slow') }),
  });
  const gateway = {
    access_key_id: 'LTAI-test',
    sign_name: '机房监控',
    template_code: 'SMS_123',
    body_template: '{"site":"{site}","device":"{device}","value":"{value}"}',
  };
  describeChannelConformance('SMS gateway (Aliyun signing)', {
    channel: () => channels.sms,
    settings: () => ({ kind: 'sms', config: cfg('/sms', gateway) }),
    to: () => ({ address: '13800138000', name: '张三' }),
    received: async () =>
      http.accepted.filter((r) => r.path === '/sms').map((r) => JSON.parse(r.body).TemplateParam as string),
    refused: () => ({ kind: 'sms', config: cfg('/sms', { ...gateway, secret: 'wrong' }) }),
    silent: () => ({ kind: 'sms', config: cfg('/slow', gateway) }),
  });
  describeChannelConformance('voice gateway (Aliyun signing)', {
    channel: () => channels.voice,
    settings: () => ({ kind: 'voice', config: cfg('/sms', gateway) }),
    to: () => ({ address: '13800138000', name: '张三' }),
    received: async () =>
      http.accepted
        .filter((r) => r.path === '/sms' && JSON.parse(r.body).Action === 'SingleCallByTts')
        .map((r) => JSON.parse(r.body).TtsParam as string),
    refused: () => ({ kind: 'voice', config: cfg('/fail', gateway) }),
  });
  const mail = (pass: string): EmailService => ({
    host: '127.0.0.1',
    port: smtp.port,
    security: 'none',
    user: 'alarm@example.com',
    password: pass,
    from: 'alarm@example.com',
    enable: true,
  });
  describeChannelConformance('e-mail (SMTP on loopback)', {
    channel: () => channels.email,
    settings: () => ({ kind: 'email', config: mail('mail-pass') }),
    to: () => ({ address: 'duty@example.com', name: 'Duty' }),
    received: async () =>
      smtp.messages.map((m) => {
        // Decode the quoted-printable / base64 body enough to find the notice text.
        const body = m.data
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n');
        const b64 = /Content-Transfer-Encoding: base64/i.test(m.data);
        const text = b64
          ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
          : body.replace(/=\r?\n/g, '');
        const qp = text.replace(/=([0-9A-F]{2})/g, (_all, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
        return `${m.to.join(',')} ${Buffer.from(qp, 'latin1').toString('utf8')}`;
      }),
    refused: () => ({ kind: 'email', config: mail('wrong-pass') }),
  });
});
