import { type CronRow, cronBody, cronRepeat, automationRoutes as r } from '@sitewatch/contract/automation';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, type FormInstance, Input, Row, Select, Switch, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { actionNames, actionsQuery, automationKey, key, runDetailText } from '../api.ts';

const page = '/timed_tasks';
const routes = { list: r.crons, create: r.createCron, update: r.updateCron, remove: r.deleteCron };
const defaults = { name: '', enable: true, repeat: 'daily', cron: '' };
/** The form keeps the start as a date; the request as epoch seconds. */
const toBody = (v: Record<string, unknown>) => {
  const { start, ...rest } = v as { start?: dayjs.Dayjs };
  // A cron task has no start: absent, not 0 (which the contract refuses).
  return { ...defaults, ...rest, ...(start ? { start: start.unix() } : {}) };
};
const rules = [contractRule(cronBody, { toBody })];

const TaskFields = ({ form }: { form: FormInstance }) => {
  const { t } = useTranslation();
  const repeat = Form.useWatch('repeat', form) as string | undefined;
  const actions = useQuery(actionsQuery);
  return (
    <Row gutter={12}>
      <FormCol rules={rules} name="name" label={t('automationUi.name')} required>
        <Input maxLength={100} />
      </FormCol>
      <FormCol rules={rules} name="device_group_id" label={t('automationUi.site')} required>
        <SiteSelect />
      </FormCol>
      <FormCol rules={rules} name="action_id" label={t('automationUi.tasks.action')} required>
        <Select
          aria-label={t('automationUi.tasks.action')}
          options={(actions.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        />
      </FormCol>
      <FormCol rules={rules} name="repeat" label={t('automationUi.tasks.repeat')} required>
        <Select
          showSearch
          optionFilterProp="label"
          options={cronRepeat.options.map((o) => ({ value: o, label: t(key(`automationUi.repeats.${o}`)) }))}
        />
      </FormCol>
      {repeat === 'cron' ? (
        <FormCol
          rules={rules}
          name="cron"
          label={t('automationUi.tasks.cron')}
          tooltip={t('automationUi.tasks.cronHelp')}
          required
        >
          <Input maxLength={120} placeholder="0 8 * * 1-5" />
        </FormCol>
      ) : (
        <FormCol rules={rules} name="start" label={t('automationUi.tasks.start')} required>
          <DatePicker showTime style={{ width: '100%' }} />
        </FormCol>
      )}
      <FormCol name="enable" label={t('automationUi.enable')} valuePropName="checked">
        <Switch />
      </FormCol>
    </Row>
  );
};

const TaskLog = () => {
  const { t } = useTranslation();
  const [pageNo, setPage] = useState(1);
  const log = useQuery({
    queryKey: [...automationKey, 'task-log', pageNo],
    queryFn: () => api.call(r.cronLog, { query: { page: pageNo, limit: 10 } }),
  });
  return (
    <Table
      rowKey="id"
      size="small"
      loading={log.isLoading}
      dataSource={log.data?.data ?? []}
      pagination={{ current: pageNo, total: log.data?.total ?? 0, pageSize: 10, onChange: setPage }}
      columns={[
        { title: t('automationUi.time'), render: (_, x) => formatTime(x.time) },
        { title: t('automationUi.tasks.task'), dataIndex: 'task_name' },
        {
          title: t('automationUi.result'),
          render: (_, x) => (
            <Tag color={x.ok ? 'green' : 'red'}>{t(x.ok ? 'automationUi.ok' : 'automationUi.failed')}</Tag>
          ),
        },
        { title: t('automationUi.detail'), render: (_, x) => runDetailText(t, x.detail) },
      ]}
    />
  );
};

/** /timed_tasks: an action on a schedule (the repeat options of 002 §4 or a cron expression) and the run log. */
export const TasksPage = () => {
  const { t } = useTranslation();
  const actions = useQuery(actionsQuery);
  const names = actionNames(actions.data);
  return (
    <Tabs
      items={[
        {
          key: 'tasks',
          label: t('automationUi.tasks.title'),
          children: (
            <ResourcePage<CronRow>
              page={page}
              title={t('automationUi.tasks.title')}
              routes={routes}
              queryKey={[...automationKey]}
              columns={[
                { title: t('automationUi.name'), dataIndex: 'name' },
                { title: t('automationUi.tasks.action'), render: (_, x) => names.get(x.action_id) ?? '—' },
                {
                  title: t('automationUi.tasks.repeat'),
                  render: (_, x) => (x.repeat === 'cron' ? x.cron : t(key(`automationUi.repeats.${x.repeat}`))),
                },
                { title: t('automationUi.tasks.nextRun'), render: (_, x) => formatTime(x.next_run) },
                { title: t('automationUi.tasks.lastRun'), render: (_, x) => formatTime(x.last_run) },
                {
                  title: t('automationUi.enable'),
                  render: (_, x) => (
                    <Tag color={x.enable ? 'green' : 'default'}>
                      {t(x.enable ? 'automationUi.enabled' : 'automationUi.disabled')}
                    </Tag>
                  ),
                },
              ]}
              initial={defaults}
              toForm={(x) => ({ ...x, start: x.start ? dayjs.unix(x.start) : undefined })}
              fromForm={(v) => toBody(v)}
              dialog={{ addTitle: t('automationUi.tasks.add'), editTitle: t('automationUi.tasks.edit'), width: 720 }}
              addLabel={t('automationUi.tasks.add')}
              fields={(form) => <TaskFields form={form} />}
            />
          ),
        },
        { key: 'log', label: t('automationUi.tasks.log'), children: <TaskLog /> },
      ]}
    />
  );
};
