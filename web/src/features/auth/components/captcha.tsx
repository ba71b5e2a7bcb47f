import { useTranslation } from 'react-i18next';
import { captchaUrl } from '../api.ts';

/** The server draws 240 × 80 (server/src/modules/auth/captcha.ts): shown at that size, pixel for pixel. */
const captchaWidth = 240;
const captchaHeight = 80;

/** The captcha image; a click asks for a new one. */
export const CaptchaImage = ({ id, onRefresh }: { id: string | null; onRefresh: () => void }) => {
  const { t } = useTranslation();
  return (
    // A native title rather than antd's Tooltip: the login page stays light.
    <button
      type="button"
      title={t('login.refreshCaptcha')}
      onClick={onRefresh}
      aria-label={t('login.refreshCaptcha')}
      style={{ padding: 0, border: 0, background: 'none', cursor: 'pointer', height: captchaHeight }}
    >
      {id && (
        <img
          src={captchaUrl(id)}
          alt={t('login.captcha')}
          width={captchaWidth}
          height={captchaHeight}
          data-testid="captcha-image"
        />
      )}
    </button>
  );
};
