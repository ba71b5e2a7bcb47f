import {
  type ActionRow,
  type ActionRun,
  actionBody,
  actionPresets,
  presetDefaults,
  automationRoutes as r,
} from '@sitewatch/contract/automation';
import { notifyRoutes } from '@sitewatch/contract/notify';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { itemsQuery } from '../../../api/monitoring.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { automationKey, key, kindsQuery, peopleQuery, runDetailText } from '../api.ts';

const page = '/setting_action';
const routes = { list: r.actions, create: r.createAction, update: r.updateAction, remove: r.deleteAction };
type Preset = keyof typeof actionPresets;
type Command = { kind: string; command: string; params: Record<string, unknown> };
const defaults = {
  name: '',
  preset: 'custom',
  commands: [{ kind: 'item.write', command: '', params: {} }],
  remark: '',
};
const rules = [contractRule(actionBody)];

/** One command's fields: its kind, the preset's command, then the kind's own params. */
const CommandFields = ({ form, index, site }: { form: FormInstance; index: number; site?: number }) => {
  const { t } = useTranslation();
  const kinds = useQuery(kindsQuery);
  const preset = (Form.useWatch('preset', form) ?? 'custom') as Preset;
  const kind = Form.useWatch(['commands', index, 'kind'], form) as string | undefined;
  const items = useQuery({ ...itemsQuery({ device_group_id: site, page: 1, limit: 1000 }), enabled: Boolean(site) });
  const groups = useQuery({
    queryKey: ['notify', 'contact-groups', 'all'],
    queryFn: () => api.call(notifyRoutes.contactGroups.list, { query: { page: 1, limit: 1000 } }),
    enabled: kind === 'notify.group',
  });
  const fields = kinds.data?.find((k) => k.kind === kind)?.fields ?? [];
  const people = useQuery({ ...peopleQuery, enabled: fields.some((f) => f.type === 'user') });
  const presetCommands: readonly string[] = actionPresets[preset];
  return (
    <>
      <FormCol span={6} name={[index, 'kind']} label={t('automationUi.actions.kind')} required>
        <Select
          aria-label={t('automationUi.actions.kind')}
          options={(kinds.data ?? []).map((k) => ({ value: k.kind, label: t(key(k.name_key)) }))}
        />
      </FormCol>
      {presetCommands.length > 0 ? (
        <FormCol span={6} name={[index, 'command']} label={t('automationUi.actions.command')} required>
          <Select
            aria-label={t('automationUi.actions.command')}
            options={presetCommands.map((c) => ({ value: c, label: t(key(`automationUi.commands.${c}`)) }))}
            onChange={(c: string) => {
              if (presetDefaults[c] !== undefined)
                form.setFieldValue(['commands', index, 'params', 'value'], presetDefaults[c]);
            }}
          />
        </FormCol>
      ) : null}
      {fields.map((f) => (
        <FormCol
          key={f.key}
          span={f.type === 'text' ? 12 : 6}
          name={[index, 'params', f.key]}
          label={t(key(`automationUi.fields.${f.key}`))}
          required={f.required}
        >
          {f.type === 'item' ? (
            <Select
              showSearch
              optionFilterProp="label"
              aria-label={t(key(`automationUi.fields.${f.key}`))}
              options={(items.data?.data ?? []).map((i) => ({ value: i.id, label: `${i.device_name} / ${i.name}` }))}
            />
          ) : f.type === 'contact_group' ? (
            <Select options={(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
          ) : f.type === 'user' ? (
            <Select
              showSearch
              optionFilterProp="label"
              aria-label={t(key(`automationUi.fields.${f.key}`))}
              options={(people.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
            />
          ) : f.type === 'work_order_priority' ? (
            <Select
              aria-label={t(key(`automationUi.fields.${f.key}`))}
              options={[1, 2, 3, 4, 5].map((p) => ({ value: p, label: t(key(`workOrderUi.priorities.${p}`)) }))}
            />
          ) : f.type === 'text' ? (
            <Input maxLength={500} />
          ) : (
            <InputNumber style={{ width: '100%' }} aria-label={t(key(`automationUi.fields.${f.key}`))} />
          )}
        </FormCol>
      ))}
    </>
  );
};

const ActionFields = ({ form }: { form: FormInstance }) => {
  const { t } = useTranslation();
  const site = Form.useWatch('device_group_id', form) as number | undefined;
  return (
    <>
      <Row gutter={12}>
        <FormCol rules={rules} name="name" label={t('automationUi.name')} required>
          <Input maxLength={100} />
        </FormCol>
        <FormCol rules={rules} name="device_group_id" label={t('automationUi.site')} required>
          <SiteSelect />
        </FormCol>
        <FormCol rules={rules} name="preset" label={t('automationUi.actions.preset')}>
          <Select
            options={Object.keys(actionPresets).map((p) => ({ value: p, label: t(key(`automationUi.presets.${p}`)) }))}
          />
        </FormCol>
        <FormCol rules={rules} name="remark" label={t('automationUi.actions.remark')}>
          <Input maxLength={500} />
        </FormCol>
      </Row>
      <Form.List name="commands">
        {(list, { add, remove }, { errors }) => (
          <>
            {list.map((field) => (
              <Row gutter={12} key={field.key} align="bottom">
                <CommandFields form={form} index={field.name} site={site} />
                <Button type="link" danger onClick={() => remove(field.name)} style={{ marginBottom: 24 }}>
                  {t('common.delete')}
                </Button>
              </Row>
            ))}
            <Form.ErrorList errors={errors} />
            <Button onClick={() => add({ kind: 'item.write', command: '', params: {} })}>
              {t('automationUi.actions.addCommand')}
            </Button>
          </>
        )}
      </Form.List>
    </>
  );
};

/** A run's outcome, command by command. */
const RunResults = ({ run }: { run: ActionRun }) => {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey={(_, i) => String(i)}
      pagination={false}
      dataSource={run.results}
      columns={[
        { title: t('automationUi.actions.command'), dataIndex: 'description' },
        {
          title: t('automationUi.result'),
          render: (_, c) => (
            <Tag color={c.ok ? 'green' : 'red'}>{t(c.ok ? 'automationUi.ok' : 'automationUi.failed')}</Tag>
          ),
        },
        { title: t('automationUi.detail'), render: (_, c) => runDetailText(t, c.detail) },
      ]}
    />
  );
};

const RunsDrawer = ({ action, onClose }: { action: ActionRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const runs = useQuery({
    queryKey: [...automationKey, 'runs', action?.id],
    queryFn: () => api.call(r.actionRuns, { params: { id: action!.id }, query: { page: 1, limit: 50 } }),
    enabled: Boolean(action),
  });
  return (
    <Drawer open={Boolean(action)} onClose={onClose} width={760} title={t('automationUi.actions.runs')}>
      <Table
        size="small"
        rowKey="id"
        loading={runs.isLoading}
        dataSource={runs.data?.data ?? []}
        expandable={{ expandedRowRender: (run) => <RunResults run={run} /> }}
        columns={[
          { title: t('automationUi.time'), render: (_, x) => formatTime(x.time) },
          { title: t('automationUi.trigger'), render: (_, x) => t(key(`automationUi.triggers.${x.trigger}`)) },
          { title: t('automationUi.user'), dataIndex: 'user_name' },
          {
            title: t('automationUi.result'),
            render: (_, x) => (
              <Tag color={x.ok ? 'green' : 'red'}>
                {t(x.ok ? 'automationUi.ok' : 'automationUi.failed')}
                {x.dry_run ? ` · ${t('automationUi.actions.dryRun')}` : ''}
              </Tag>
            ),
          },
        ]}
      />
    </Drawer>
  );
};

/** /setting_action: actions, their typed presets and commands, runs by hand and their log (docs/automation.md). */
export const ActionsPage = () => {
  const { t } = useTranslation();
  const canControl = useCan(page, 'control');
  const sites = useQuery(sitesQuery);
  const siteName = new Map((sites.data?.data ?? []).map((s) => [s.id, s.name]));
  const [runsOf, setRunsOf] = useState<ActionRow | null>(null);
  const run = useMutation({
    mutationFn: (input: { id: number; dry: boolean }) =>
      api.call(r.remoteControl, { body: { action_id: input.id, dry_run: input.dry } }),
    onSuccess: (result) =>
      Modal.info({
        width: 720,
        title: t(result.dry_run ? 'automationUi.actions.dryRunDone' : 'automationUi.actions.runDone'),
        content: <RunResults run={result} />,
      }),
  });
  return (
    <>
      <ResourcePage<ActionRow>
        page={page}
        title={t('automationUi.actions.title')}
        routes={routes}
        queryKey={[...automationKey]}
        filters={() => (
          <Form.Item name="name">
            <Input placeholder={t('automationUi.name')} allowClear />
          </Form.Item>
        )}
        toQuery={(v) => ({ name: (v.name as string) || undefined })}
        columns={[
          { title: t('automationUi.name'), dataIndex: 'name' },
          { title: t('automationUi.site'), render: (_, a) => siteName.get(a.device_group_id) ?? '—' },
          { title: t('automationUi.actions.preset'), render: (_, a) => t(key(`automationUi.presets.${a.preset}`)) },
          {
            title: t('automationUi.actions.commands'),
            render: (_, a) => (
              <Space direction="vertical" size={0}>
                {a.commands.map((c, i) => (
                  <span key={String(i)}>
                    {c.command ? `${t(key(`automationUi.commands.${c.command}`))}: ` : ''}
                    {c.description}
                  </span>
                ))}
              </Space>
            ),
          },
        ]}
        initial={defaults}
        toForm={(a) => ({ ...a, commands: a.commands.map(({ description: _, ...c }) => c) })}
        fromForm={(v) => ({ ...defaults, ...v, commands: (v.commands as Command[] | undefined) ?? [] })}
        dialog={{ addTitle: t('automationUi.actions.add'), editTitle: t('automationUi.actions.edit'), width: 900 }}
        addLabel={t('automationUi.actions.add')}
        fields={(form) => <ActionFields form={form} />}
        extraActions={(a) => (
          <>
            <Button type="link" size="small" onClick={() => setRunsOf(a)}>
              {t('automationUi.actions.runs')}
            </Button>
            {canControl ? (
              <>
                <Button type="link" size="small" onClick={() => run.mutate({ id: a.id, dry: true })}>
                  {t('automationUi.actions.dryRun')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() =>
                    Modal.confirm({
                      title: t('automationUi.actions.runConfirm', { name: a.name }),
                      onOk: () => run.mutateAsync({ id: a.id, dry: false }),
                    })
                  }
                >
                  {t('automationUi.actions.run')}
                </Button>
              </>
            ) : null}
          </>
        )}
      />
      <RunsDrawer action={runsOf} onClose={() => setRunsOf(null)} />
    </>
  );
};
