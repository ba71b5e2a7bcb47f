import { DownOutlined, ExportOutlined, FullscreenOutlined, HomeOutlined, UserOutlined } from '@ant-design/icons';
import { authRoutes } from '@sitewatch/contract/auth';
import { Button, Dropdown, Flex, Space, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { readUserName } from '../../api/tokens.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { LanguagePicker, ThemePicker } from '../../components/preference-pickers.tsx';
import { topBarSlotId } from '../../components/top-bar-slot.ts';
import { AlarmBell } from '../../features/alarms/components/alarm-bell.tsx';
import { LicenceReminder } from '../../features/licence/components/licence-reminder.tsx';
import { WorkOrderBell } from '../../features/work-orders/components/work-order-bell.tsx';
import { useEdition } from '../../session/edition.ts';
import { useLogoutConfirm } from '../../session/logout.ts';
import { useSession } from '../../session/session.ts';
import { PasswordDialog } from './password-dialog.tsx';
import { ServerClock } from './server-clock.tsx';

/** Top bar (000 §2.4): logo, system name, licence status (when not activated), server clock, home, full screen, new page, theme, language, user menu. */
export const TopBar = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const user = useSession((s) => s.user);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const confirmLogout = useLogoutConfirm();
  const edition = useEdition();
  const lt2 = user?.login_type === 2;
  const openInNewPage = () => {
    const url = new URL(window.location.href);
    url.searchParams.set('fullShow', 'yes');
    window.open(url.toString(), '_blank', 'noopener');
  };
  return (
    <Flex align="center" justify="space-between" style={{ height: '100%', gap: 16 }}>
      {/* The name gives way first (ellipsis, the whole name on hover): the bar never overflows at 1366 px. */}
      <Flex align="center" gap={12} style={{ minWidth: 0 }}>
        <BrandLogo kind="main" maxHeight={40} fallbackSize={28} />
        {edition.sys_show && (
          <Typography.Title
            level={4}
            data-testid="shell-sys-name"
            ellipsis={{ tooltip: edition.sys_name || t('app.name') }}
            style={{ margin: 0, color: token.colorPrimary, whiteSpace: 'nowrap', minWidth: 0 }}
          >
            {edition.sys_name || t('app.name')}
          </Typography.Title>
        )}
        {/* The alarm prompts (features/alarms), in the bar's flow. */}
        <div id={topBarSlotId} style={{ display: 'flex', whiteSpace: 'nowrap' }} />
      </Flex>
      <Space size={12} wrap={false} style={{ flex: 'none' }}>
        <LicenceReminder />
        <ServerClock />
        <AlarmBell />
        <WorkOrderBell />
        <Tooltip title={t('shell.home')}>
          <Button type="text" aria-label={t('shell.home')} icon={<HomeOutlined />} onClick={() => navigate('/')} />
        </Tooltip>
        <Tooltip title={t('shell.fullScreen')}>
          <Button
            type="text"
            aria-label={t('shell.fullScreen')}
            icon={<FullscreenOutlined />}
            onClick={() =>
              document.fullscreenElement
                ? void document.exitFullscreen()
                : void document.documentElement.requestFullscreen()
            }
          />
        </Tooltip>
        <Tooltip title={t('shell.newPage')}>
          <Button type="text" aria-label={t('shell.newPage')} icon={<ExportOutlined />} onClick={openInNewPage} />
        </Tooltip>
        <ThemePicker />
        <LanguagePicker
          onBeforeChange={(language) => api.call(authRoutes.menuLanguage, { body: { language } }).then(() => undefined)}
        />
        <Dropdown
          menu={{
            items: [
              ...(lt2 ? [] : [{ key: 'password', label: t('shell.password.title') }]),
              { key: 'devices', label: t('autoLogin.title') },
              { key: 'tokens', label: t('apiTokens.menu') },
              { key: 'logout', label: t('shell.logout.label') },
            ],
            onClick: ({ key }) => {
              if (key === 'password') setPasswordOpen(true);
              if (key === 'devices') navigate('/setting_auto_login');
              if (key === 'tokens') navigate('/setting_api_tokens');
              if (key === 'logout') confirmLogout();
            },
          }}
        >
          <Button type="text" data-testid="user-menu" icon={<UserOutlined />}>
            {user?.alias || user?.user_name || readUserName()} <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
      <PasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Flex>
  );
};
