import { operationLogModules } from '@sitewatch/contract/operation-log';
import { operationLogExportPath, type operationLogRow, usersRoutes } from '@sitewatch/contract/users';
import { App, Button, DatePicker, Form, Input, Select, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ClearLogButton } from '../../../components/clear-log-button.tsx';
import { downloadFile } from '../../../components/download.ts';
import { useOperationLogReader } from '../../../components/operation-log-reader.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';

type LogRow = z.infer<typeof operationLogRow>;

/** The module filter's choices by name; the codes written under one name are asked for together. */
const useModuleOptions = (name: (code: string) => string) =>
  useMemo(() => {
    const codes = new Map<string, string[]>();
    for (const code of Object.keys(operationLogModules))
      codes.set(name(code), [...(codes.get(name(code)) ?? []), code]);
    return [...codes]
      .map(([label, list]) => ({ label, value: list.join(',') }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [name]);

/** /system_log_user: who, what, when, from where, result; filters, paging, xlsx export, guarded clearing. */
export const OperationLogPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const read = useOperationLogReader();
  const modules = useModuleOptions(read.module);
  const canExport = useCan('/system_log_user', 'export');
  const canClear = useCan('/system_log_user', 'clear');
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);
  return (
    <ResourcePage<LogRow>
      page="/system_log_user"
      title={t('menu.operationLog')}
      routes={{ list: usersRoutes.operationLog }}
      queryKey={['logs', 'operation']}
      filters={() => (
        <>
          <Form.Item name="user_name" label={t('opLog.user')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="module" label={t('opLog.module')}>
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} style={{ width: 180 }} options={modules} />
          </Form.Item>
          <Form.Item name="result" label={t('opLog.result')}>
            <Select
              allowClear
              style={{ width: 100 }}
              options={[
                { value: '1', label: t('opLog.success') },
                { value: '0', label: t('opLog.failure') },
              ]}
            />
          </Form.Item>
          <Form.Item name="range" label={t('opLog.time')}>
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      )}
      toQuery={(v) => {
        const range = v.range as [Dayjs, Dayjs] | null | undefined;
        return {
          user_name: text(v.user_name),
          module: text(v.module),
          result: v.result,
          t1: range?.[0] ? range[0].startOf('day').unix() : undefined,
          t2: range?.[1] ? range[1].endOf('day').unix() : undefined,
        };
      }}
      toolbar={({ page: _, limit: __, ...filters }) => (
        <>
          {canExport && (
            <Button
              onClick={() =>
                void downloadFile(
                  operationLogExportPath,
                  filters,
                  `operation_record_${dayjs().format('YYYYMMDDHHmmss')}.xlsx`,
                ).catch((err: Error) => message.error(err.message))
              }
            >
              {t('common.export')}
            </Button>
          )}
          {canClear && (
            <ClearLogButton
              route={usersRoutes.operationLogClear}
              queryKey={['logs']}
              label={t('opLog.clear')}
              title={t('opLog.clearTitle')}
              explain={<p>{t('opLog.clearExplain')}</p>}
              passwordLabel={t('opLog.verifyPassword')}
            />
          )}
        </>
      )}
      columns={[
        { title: t('opLog.time'), dataIndex: 'time', width: 170, render: (s: number) => formatTime(s) },
        { title: t('opLog.user'), dataIndex: 'user_name', width: 120 },
        { title: t('opLog.ip'), dataIndex: 'ip', width: 140 },
        {
          title: t('opLog.module'),
          dataIndex: 'module',
          width: 110,
          render: read.module,
        },
        {
          title: t('opLog.action'),
          dataIndex: 'action',
          width: 140,
          render: read.action,
        },
        { title: t('opLog.target'), dataIndex: 'target', ellipsis: true },
        {
          title: t('opLog.result'),
          dataIndex: 'result',
          width: 90,
          render: (r: number) => <Tag color={r ? 'green' : 'red'}>{r ? t('opLog.success') : t('opLog.failure')}</Tag>,
        },
        {
          title: t('opLog.detail'),
          dataIndex: 'detail',
          ellipsis: true,
          // A settings snapshot is data in the settings' own field names: shown as code, not as words.
          render: (detail: string) =>
            /^[[{]/.test(detail) && read.detail(detail) === detail ? (
              <Typography.Text code>{detail}</Typography.Text>
            ) : (
              read.detail(detail)
            ),
        },
      ]}
    />
  );
};
