import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { captchaUrl } from '../api.ts';

/** The captcha image; a click asks for a new one. */
export const CaptchaImage = ({ id, onRefresh }: { id: string | null; onRefresh: () => void }) => {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('login.refreshCaptcha')}>
      <button
        type="button"
        onClick={onRefresh}
        aria-label={t('login.refreshCaptcha')}
        style={{ padding: 0, border: 0, background: 'none', cursor: 'pointer', height: 40 }}
      >
        {id && (
          <img src={captchaUrl(id)} alt={t('login.captcha')} width={120} height={40} data-testid="captcha-image" />
        )}
      </button>
    </Tooltip>
  );
};
