import type { OutboundConfig } from '@sitewatch/contract/auth';
import type { ChannelKind } from '@sitewatch/contract/notify';
import type { Channel } from '../channel.ts';
import { withOutboundPolicy } from '../outbound.ts';
import { dingtalkChannel } from './dingtalk.ts';
import { emailChannel } from './email.ts';
import { feishuChannel } from './feishu.ts';
import { smsChannel, voiceChannel } from './sms.ts';
import { webhookChannel } from './webhook.ts';
import { wecomChannel } from './wecom.ts';

export type ChannelRegistry = Record<ChannelKind, Channel>;

const all: ChannelRegistry = {
  email: emailChannel,
  webhook: webhookChannel,
  dingtalk: dingtalkChannel,
  wecom: wecomChannel,
  feishu: feishuChannel,
  sms: smsChannel,
  voice: voiceChannel,
};

/**
 * Every channel kind by name; each send is checked against the administrator's outbound policy
 * (global config OUTBOUND), read at the time of sending. Without one, the default ranges are refused.
 */
export const createChannels = (policy?: () => Promise<OutboundConfig>): ChannelRegistry => {
  if (!policy) return { ...all };
  const guarded = {} as ChannelRegistry;
  for (const [kind, channel] of Object.entries(all) as Array<
    [keyof ChannelRegistry, ChannelRegistry[keyof ChannelRegistry]]
  >) {
    guarded[kind] = { kind: channel.kind, send: (...args) => withOutboundPolicy(policy, () => channel.send(...args)) };
  }
  return guarded;
};
