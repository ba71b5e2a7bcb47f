import type { DeviceRow } from '@sitewatch/contract/monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Divider, Input, List, Modal, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { pointFileBody, templateApi } from '../template-api.ts';

/** The row-level problems of a refused import (`data.fields`, each naming its row and column). */
const rowProblems = (error: unknown): string[] => {
  if (!(error instanceof ApiError)) return [];
  const fields = (error.data as { fields?: Array<{ message: string }> } | null)?.fields ?? [];
  return fields.map((f) => f.message);
};

/**
 * A device's point table: download it as xlsx or CSV, upload one back (rows create or update items
 * by name; any bad row changes nothing and is listed), or keep it as a new device template.
 */
export const PointTableDialog = ({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [templateName, setTemplateName] = useState('');
  const canExport = useCan('/setting_device_mange', 'export');
  const canImport = useCan('/setting_items', 'import');
  const canTemplate = useCan('/setting_device_mange', 'add');
  const importing = useMutation({
    mutationFn: async (file: File) => templateApi.importPoints(device!.id, await pointFileBody(file)),
    onSuccess: (result) => {
      void message.success(t('monitoringUi.pointTable.imported', result));
      void client.invalidateQueries({ queryKey: ['monitoring'] });
    },
  });
  const saving = useMutation({
    mutationFn: () => templateApi.fromDevice({ device_id: device!.id, name: templateName }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setTemplateName('');
      void client.invalidateQueries({ queryKey: ['monitoring', 'templates'] });
    },
  });
  const problems = rowProblems(importing.error);
  return (
    <Modal
      open={device !== null}
      width={720}
      title={t('monitoringUi.pointTable.title', { name: device?.name ?? '' })}
      onCancel={() => {
        importing.reset();
        onClose();
      }}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('monitoringUi.pointTable.help')}</Typography.Paragraph>
      <Space wrap>
        {canExport ? (
          <>
            <Button onClick={() => void templateApi.exportDevice(device!.id, 'xlsx')}>
              {t('monitoringUi.pointTable.exportXlsx')}
            </Button>
            <Button onClick={() => void templateApi.exportDevice(device!.id, 'csv')}>
              {t('monitoringUi.pointTable.exportCsv')}
            </Button>
          </>
        ) : null}
        {canImport ? (
          <Upload
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            showUploadList={false}
            beforeUpload={(file) => {
              importing.mutate(file);
              return false;
            }}
          >
            <Button type="primary" loading={importing.isPending}>
              {t('monitoringUi.pointTable.import')}
            </Button>
          </Upload>
        ) : null}
      </Space>
      {problems.length > 0 ? (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={t('monitoringUi.pointTable.refused', { count: problems.length })}
          description={<List size="small" dataSource={problems} renderItem={(p) => <List.Item>{p}</List.Item>} />}
        />
      ) : null}
      {canTemplate ? (
        <>
          <Divider titlePlacement="start">{t('monitoringUi.pointTable.asTemplate')}</Divider>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              aria-label={t('monitoringUi.templates.name')}
              placeholder={t('monitoringUi.templates.name')}
              maxLength={64}
              value={templateName}
              onChange={(e) => setTemplateName(e.target.value)}
            />
            <Button disabled={!templateName.trim()} loading={saving.isPending} onClick={() => saving.mutate()}>
              {t('monitoringUi.pointTable.saveTemplate')}
            </Button>
          </Space.Compact>
        </>
      ) : null}
    </Modal>
  );
};
