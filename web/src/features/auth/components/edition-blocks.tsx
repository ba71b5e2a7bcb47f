import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEdition } from '../../../session/edition.ts';

/**
 * Under the login panel (000 §2.1): the support block, the system info block and the filing line
 * (text plus filing number), each only when its flag is set; the company beside the filing line.
 */
export const EditionBlocks = () => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const edition = useEdition();
  const block = { width: 400, marginTop: 16, color: token.colorTextSecondary, whiteSpace: 'pre-line' } as const;
  const filing = [edition.filing_info, edition.filing_number].filter(Boolean).join(' ');
  return (
    <>
      {edition.support_show && edition.support_info && (
        <section id="support" data-testid="login-support" style={block}>
          <strong style={{ color: token.colorText }}>{t('login.support')}</strong>
          <div>{edition.support_info}</div>
        </section>
      )}
      {edition.sys_info_show && edition.sys_info && (
        <section data-testid="login-sys-info" style={block}>
          {edition.sys_info}
        </section>
      )}
      {(edition.company || (edition.filing_display && filing)) && (
        <footer data-testid="login-filing" style={{ marginTop: 24, color: token.colorTextSecondary }}>
          {[edition.company, edition.filing_display ? filing : ''].filter(Boolean).join('  ')}
        </footer>
      )}
    </>
  );
};
