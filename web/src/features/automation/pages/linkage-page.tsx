import { conditionOp, type LinkageRow, linkageBody, automationRoutes as r } from '@sitewatch/contract/automation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, type FormInstance, Input, InputNumber, Row, Select, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { itemsQuery } from '../../../api/monitoring.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { PeriodSelect } from '../../../components/period-select.tsx';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { actionNames, actionsQuery, automationKey, key } from '../api.ts';

const page = '/linkage';
const routes = { list: r.linkages, create: r.createLinkage, update: r.updateLinkage, remove: r.deleteLinkage };
const defaults = {
  name: '',
  enable: true,
  match: 'all',
  conditions: [{ op: 'gt', value: 0 }],
  hold_seconds: 0,
  period_id: 0,
  recovery_action_id: 0,
};
const rules = [contractRule(linkageBody)];

const LinkageFields = ({ form }: { form: FormInstance }) => {
  const { t } = useTranslation();
  const site = Form.useWatch('device_group_id', form) as number | undefined;
  const items = useQuery({ ...itemsQuery({ device_group_id: site, page: 1, limit: 1000 }), enabled: Boolean(site) });
  const actions = useQuery(actionsQuery);
  const actionOptions = (actions.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }));
  return (
    <>
      <Row gutter={12}>
        <FormCol rules={rules} name="name" label={t('automationUi.name')} required>
          <Input maxLength={100} />
        </FormCol>
        <FormCol rules={rules} name="device_group_id" label={t('automationUi.site')} required>
          <SiteSelect />
        </FormCol>
        <FormCol rules={rules} name="match" label={t('automationUi.linkage.match')}>
          <Select
            options={['all', 'any'].map((m) => ({ value: m, label: t(key(`automationUi.linkage.matches.${m}`)) }))}
          />
        </FormCol>
        <FormCol
          rules={rules}
          name="hold_seconds"
          label={t('automationUi.linkage.hold')}
          tooltip={t('automationUi.linkage.holdHelp')}
        >
          <InputNumber min={0} max={86400} style={{ width: '100%' }} suffix="s" />
        </FormCol>
      </Row>
      <Form.List name="conditions">
        {(list, { add, remove }) => (
          <>
            {list.map((field) => (
              <Row gutter={12} key={field.key} align="bottom">
                <FormCol span={10} name={[field.name, 'item_id']} label={t('automationUi.linkage.item')} required>
                  <Select
                    showSearch
                    optionFilterProp="label"
                    aria-label={t('automationUi.linkage.item')}
                    options={(items.data?.data ?? []).map((i) => ({
                      value: i.id,
                      label: `${i.device_name} / ${i.name}`,
                    }))}
                  />
                </FormCol>
                <FormCol span={6} name={[field.name, 'op']} label={t('automationUi.linkage.op')} required>
                  <Select
                    aria-label={t('automationUi.linkage.op')}
                    options={conditionOp.options.map((o) => ({ value: o, label: t(key(`automationUi.ops.${o}`)) }))}
                  />
                </FormCol>
                <FormCol span={5} name={[field.name, 'value']} label={t('automationUi.linkage.value')}>
                  <InputNumber style={{ width: '100%' }} aria-label={t('automationUi.linkage.value')} />
                </FormCol>
                <Button type="link" danger onClick={() => remove(field.name)} style={{ marginBottom: 24 }}>
                  {t('common.delete')}
                </Button>
              </Row>
            ))}
            <Button onClick={() => add({ op: 'gt', value: 0 })} style={{ marginBottom: 16 }}>
              {t('automationUi.linkage.addCondition')}
            </Button>
          </>
        )}
      </Form.List>
      <Row gutter={12}>
        <FormCol rules={rules} name="period_id" label={t('automationUi.linkage.period')}>
          <PeriodSelect noneLabel={t('automationUi.always')} />
        </FormCol>
        <FormCol rules={rules} name="action_id" label={t('automationUi.linkage.action')} required>
          <Select aria-label={t('automationUi.linkage.action')} options={actionOptions} />
        </FormCol>
        <FormCol rules={rules} name="recovery_action_id" label={t('automationUi.linkage.recoveryAction')}>
          <Select options={[{ value: 0, label: t('automationUi.none') }, ...actionOptions]} />
        </FormCol>
        <FormCol name="enable" label={t('automationUi.enable')} valuePropName="checked">
          <Switch />
        </FormCol>
      </Row>
    </>
  );
};

/** /linkage: rules "when these conditions hold, run this action" (docs/automation.md, "Linkage"). */
export const LinkagePage = () => {
  const { t } = useTranslation();
  const canEdit = useCan(page, 'edit');
  const client = useQueryClient();
  const actions = useQuery(actionsQuery);
  const names = actionNames(actions.data);
  const toggle = useMutation({
    mutationFn: (input: { id: number; enable: boolean }) => api.call(r.linkageState, { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...automationKey] }),
  });
  return (
    <ResourcePage<LinkageRow>
      page={page}
      title={t('automationUi.linkage.title')}
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
        {
          title: t('automationUi.linkage.conditions'),
          render: (_, x) =>
            `${t(key(`automationUi.linkage.matches.${x.match}`))}: ${x.conditions
              .map(
                (c, i) =>
                  `${x.item_names[i] || '—'} ${t(key(`automationUi.ops.${c.op}`))}${c.op === 'alarm' || c.op === 'normal' ? '' : ` ${c.value}`}`,
              )
              .join(', ')}${x.hold_seconds ? ` ≥ ${x.hold_seconds}s` : ''}`,
        },
        { title: t('automationUi.linkage.action'), render: (_, x) => names.get(x.action_id) ?? '—' },
        {
          title: t('automationUi.linkage.recoveryAction'),
          render: (_, x) => names.get(x.recovery_action_id) ?? t('automationUi.none'),
        },
        {
          title: t('automationUi.linkage.state'),
          render: (_, x) => (
            <Tag color={x.active ? 'orange' : 'default'}>
              {t(x.active ? 'automationUi.linkage.active' : 'automationUi.linkage.idle')}
            </Tag>
          ),
        },
        { title: t('automationUi.linkage.lastFired'), render: (_, x) => formatTime(x.last_fired) },
        {
          title: t('automationUi.enable'),
          render: (_, x) => (
            <Switch
              size="small"
              checked={x.enable}
              disabled={!canEdit}
              aria-label={t('automationUi.enable')}
              onChange={(enable) => toggle.mutate({ id: x.id, enable })}
            />
          ),
        },
      ]}
      initial={defaults}
      toForm={(x) => ({ ...x })}
      fromForm={(v) => ({ ...defaults, ...v })}
      dialog={{ addTitle: t('automationUi.linkage.add'), editTitle: t('automationUi.linkage.edit'), width: 900 }}
      addLabel={t('automationUi.linkage.add')}
      fields={(form) => <LinkageFields form={form} />}
    />
  );
};
