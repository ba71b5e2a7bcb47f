import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../session/permissions.ts';

/** Whether the caller may operate switches now: the control function, switch control on, a password set. */
export const useSwitchControl = (answer: { control_enabled: boolean; password_set: boolean } | undefined) => {
  const can = useCan('/electricity_safe/switch_opt', 'control');
  return can && Boolean(answer?.control_enabled && answer.password_set);
};

/** Says why switches cannot be operated, when they cannot. */
export const ControlNotice = ({
  answer,
}: {
  answer: { control_enabled: boolean; password_set: boolean } | undefined;
}) => {
  const { t } = useTranslation();
  const can = useCan('/electricity_safe/switch_opt', 'control');
  if (!answer) return null;
  const reason = !answer.control_enabled
    ? t('electricalUi.controlOff')
    : !answer.password_set
      ? t('electricalUi.noPassword')
      : !can
        ? t('electricalUi.noControlFunction')
        : null;
  return reason ? <Alert type="info" showIcon message={reason} style={{ marginBottom: 12 }} /> : null;
};
