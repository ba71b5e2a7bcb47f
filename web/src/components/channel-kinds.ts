import { type ChannelKind, channelKinds } from '@sitewatch/contract/notify';
import { useTranslation } from 'react-i18next';

const kindKeys = {
  email: 'alarmSettings.channelKinds.email',
  webhook: 'alarmSettings.channelKinds.webhook',
  dingtalk: 'alarmSettings.channelKinds.dingtalk',
  wecom: 'alarmSettings.channelKinds.wecom',
  feishu: 'alarmSettings.channelKinds.feishu',
  sms: 'alarmSettings.channelKinds.sms',
  voice: 'alarmSettings.channelKinds.voice',
} as const satisfies Record<ChannelKind, string>;

/** A notification channel's kind by name (the channel page, the notification log); an unknown code as it is. */
export const useChannelKinds = () => {
  const { t } = useTranslation();
  const label = (kind: string) => (kind in kindKeys ? t(kindKeys[kind as ChannelKind]) : kind);
  return { label, options: channelKinds.map((k) => ({ value: k, label: label(k) })) };
};
