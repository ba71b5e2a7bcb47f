import { type HistoryTemplateRow, historyTemplateInput } from '@sitewatch/contract/series';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, type FormInstance, Input, Modal, Popconfirm, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../session/permissions.ts';
import { historyTemplatesQuery, reportsApi } from '../api.ts';
import type { Selection } from './history-selection.tsx';

/** The body of a saved template: the whole selection under a name. */
const templateBody = (name: string, values: Selection) => ({
  name,
  item_ids: values.item_ids ?? [],
  interval: values.interval ?? 'auto',
  site_id: values.site ?? 0,
  device_ids: values.device_ids ?? [],
  range: values.range ?? 'last24h',
  t1: values.custom ? values.custom[0].unix() : null,
  t2: values.custom ? values.custom[1].unix() : null,
});

/** Saved templates of the history report's selection: load one, delete it, or save the current selection. */
export const TemplateBar = ({
  form,
  onApply,
}: {
  form: FormInstance<Selection>;
  onApply: (template: HistoryTemplateRow) => void;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const templates = useQuery(historyTemplatesQuery);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [templateName, setTemplateName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const canAdd = useCan('/history_report', 'add');
  const canDelete = useCan('/history_report', 'delete');

  const remove = useMutation({
    mutationFn: (id: number) => reportsApi.deleteTemplate(id),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setTemplateId(null);
      void client.invalidateQueries({ queryKey: ['reports', 'templates'] });
    },
    onError: (err) => void message.error(err.message),
  });
  const create = useMutation({
    mutationFn: reportsApi.createTemplate,
    onSuccess: (tpl) => {
      void message.success(t('common.operationSuccess'));
      setSaving(false);
      setTemplateId(tpl.id);
      void client.invalidateQueries({ queryKey: ['reports', 'templates'] });
    },
    onError: (err) => setNameError(err.message),
  });
  const onSave = () => {
    const parsed = historyTemplateInput.safeParse(templateBody(templateName, form.getFieldsValue(true) as Selection));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setNameError(
        issue.message.startsWith('monitoring.') ? t(issue.message as never) : t('monitoring.validation.reportTitle'),
      );
      return;
    }
    setNameError(null);
    create.mutate(parsed.data);
  };

  return (
    <>
      <Space wrap size={8}>
        <Select
          aria-label={t('reportsUi.history.templates')}
          style={{ width: 200 }}
          placeholder={t('reportsUi.history.loadTemplate')}
          value={templateId ?? undefined}
          options={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
          notFoundContent={
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reportsUi.history.noTemplates')} />
          }
          onChange={(id: number) => {
            setTemplateId(id);
            const tpl = templates.data?.find((x) => x.id === id);
            if (tpl) onApply(tpl);
          }}
        />
        {canDelete && templateId !== null && (
          <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(templateId)}>
            <Button danger loading={remove.isPending}>
              {t('reportsUi.history.deleteTemplate')}
            </Button>
          </Popconfirm>
        )}
        {canAdd && (
          <Button
            onClick={() => {
              setTemplateName('');
              setNameError(null);
              setSaving(true);
            }}
          >
            {t('reportsUi.history.saveTemplate')}
          </Button>
        )}
      </Space>
      <Modal
        title={t('reportsUi.history.saveTemplate')}
        open={saving}
        onCancel={() => setSaving(false)}
        onOk={onSave}
        confirmLoading={create.isPending}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item
            label={t('reportsUi.history.templateName')}
            validateStatus={nameError ? 'error' : undefined}
            help={nameError ?? t('reportsUi.history.templateHint')}
          >
            <Input
              aria-label={t('reportsUi.history.templateName')}
              value={templateName}
              maxLength={64}
              onChange={(e) => setTemplateName(e.target.value)}
              onPressEnter={onSave}
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};
