import { maintenanceRoutes as r } from '@sitewatch/contract/maintenance';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { formatTime } from '../../../components/time.ts';
import { useIsAdministrator } from '../../../session/permissions.ts';
import { backupKeys } from '../api.ts';
import { FileText } from './file-text.tsx';

/** 000 §7: the latest backup is asked every 30 s. */
const latestEveryMs = 30_000;
const noticeKey = 'latest-backup';

/**
 * The latest-backup notice of 000 §3 and §7 in the shell: every 30 s the latest backup (file, read,
 * time, ftp) is read; a package not yet seen is told in a notice that opens the backup page's
 * packages (`/setting_backup?backupShow=true&tabActive=2`); closing it tells the server (PUT), so
 * it is not told again. Only administrators are asked (the backup routes are theirs).
 */
export const BackupNotice = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const client = useQueryClient();
  const admin = useIsAdministrator();
  const latest = useQuery({
    queryKey: backupKeys.latest,
    queryFn: () => api.call(r.latest),
    enabled: admin,
    refetchInterval: (query) => (query.state.status === 'error' ? false : latestEveryMs),
    retry: false,
  });
  const shown = useRef<string | null>(null);
  const data = latest.data;
  useEffect(() => {
    if (!data || data.read || !data.file) {
      if (shown.current) notification.destroy(noticeKey);
      shown.current = null;
      return;
    }
    const id = `${data.file}@${data.time}`;
    if (shown.current === id) return;
    shown.current = id;
    const close = () => {
      notification.destroy(noticeKey);
      void api.call(r.closeLatest).then(() => client.invalidateQueries({ queryKey: backupKeys.latest }));
    };
    notification.info({
      key: noticeKey,
      message: t('backupPage.noticeTitle'),
      description: <FileText i18nKey="backupPage.noticeText" file={data.file} time={formatTime(data.time)} />,
      duration: 0,
      placement: 'bottomRight',
      onClose: close,
      btn: (
        <Button
          type="primary"
          size="small"
          onClick={() => {
            close();
            void navigate('/setting_backup?backupShow=true&tabActive=2');
          }}
        >
          {t('backupPage.noticeView')}
        </Button>
      ),
    });
  }, [data, notification, navigate, client, t]);
  return null;
};
