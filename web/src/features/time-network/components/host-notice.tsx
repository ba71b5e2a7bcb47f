import type { HostAbility } from '@sitewatch/contract/time-network';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** Why the host cannot be changed from here, in words (the shared text of each reason). */
export const HostNotice = ({ ability, title }: { ability: HostAbility; title: string }) => {
  const { t } = useTranslation();
  if (ability.available) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message={title}
      description={t(`timeNetwork.${ability.reason ?? 'failed'}`, { detail: ability.detail || '-' })}
    />
  );
};
