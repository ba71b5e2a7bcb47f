import { useQuery } from '@tanstack/react-query';
import { App, Button, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCan } from '../../../session/permissions.ts';
import { assetQuery, settingMenuPage } from '../api.ts';
import { LinkFrame } from './external-link-page.tsx';

/**
 * /asset_management (000 §6): the asset-management system at the address the administrator set in
 * /setting_menu, in a sandboxed frame or a new tab; no credentials of ours go with it. Unset: the
 * message of 000 §8.
 */
export const AssetPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const canSet = useCan(settingMenuPage, 'edit');
  const asset = useQuery(assetQuery);
  const url = asset.data?.url ?? '';
  const alone = params.get('fullShow') === 'yes';
  useEffect(() => {
    if (asset.data && url === '') void message.warning(t('customMenusUi.assetUnset'));
    // Opened from the menu in a new tab: this tab goes to the asset system.
    if (url && asset.data?.target === '_blank' && alone) window.location.replace(url);
  }, [asset.data, url, alone, message, t]);
  if (asset.isError) return <Result status="403" title={t('errors.forbidden')} />;
  if (!asset.data) return <Spin />;
  if (url === '')
    return (
      <Result
        status="warning"
        title={t('customMenusUi.assetUnset')}
        extra={
          canSet && (
            <Button type="primary" onClick={() => navigate(settingMenuPage)}>
              {t('customMenusUi.goSettings')}
            </Button>
          )
        }
      />
    );
  if (asset.data.target === '_blank')
    return (
      <Result
        status="info"
        title={t('menu.assetManagement')}
        subTitle={t('customMenusUi.opensInNewTab')}
        extra={
          <Button type="primary" onClick={() => window.open(url, '_blank', 'noopener,noreferrer')}>
            {t('customMenusUi.openInNewTab')}
          </Button>
        }
      />
    );
  return <LinkFrame url={url} title={t('menu.assetManagement')} />;
};
