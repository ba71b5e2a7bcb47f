import { routeUrl } from '@sitewatch/contract';
import { type DutyEntry, type DutyShift, dutyRoutes as r } from '@sitewatch/contract/duty';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { downloadFile } from '../../../components/download.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { useSiteName } from '../site-name.ts';

const day = (d: Dayjs) => d.format('YYYY-MM-DD');

/**
 * /duty_manage/duty_arrange: shifts, a rotation over weeks, one-off overrides and the two weeks ahead.
 * A shift is of a site or of every site; the user sees the shifts of their sites and of every site,
 * and arranges those the server marks editable (docs/inspection-duty.md).
 */
export const ArrangePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canEdit = useCan('/duty_manage/duty_arrange', 'edit');
  // A shift of every site (no site chosen) is for users granted every site: others must choose theirs.
  const restricted = useSession((s) => s.user?.site_ids != null);
  const siteName = useSiteName();
  const [from, setFrom] = useState(() => dayjs().startOf('day'));
  const to = from.add(13, 'day');
  const done = () => {
    void client.invalidateQueries({ queryKey: ['duty'] });
    void message.success(t('dutyUi.saved'));
  };
  const shifts = useQuery({ queryKey: ['duty', 'shifts'], queryFn: () => api.call(r.shifts, { query: {} }) });
  const contacts = useQuery({ queryKey: ['duty', 'contacts'], queryFn: () => api.call(r.members, { query: {} }) });
  const table = useQuery({
    queryKey: ['duty', 'table', day(from)],
    queryFn: () => api.call(r.table, { query: { from: day(from), to: day(to) } }),
  });
  const now = useQuery({ queryKey: ['duty', 'now'], queryFn: () => api.call(r.onDuty, { query: {} }) });
  const addShift = useMutation({
    mutationFn: (v: { name: string; start: string; end: string; device_group_id?: number | null }) =>
      api.call(r.addShift, { body: { ...v, device_group_id: v.device_group_id ?? null } }),
    onSuccess: done,
  });
  const deleteShift = useMutation({
    mutationFn: (id: number) => api.call(r.deleteShift, { params: { id } }),
    onSuccess: done,
  });
  const rotate = useMutation({
    mutationFn: (v: { shift_id: number; contact_ids: number[]; start: Dayjs; weeks: number }) =>
      api.call(r.rotate, {
        body: {
          shift_id: v.shift_id,
          contact_ids: v.contact_ids,
          start_date: day(v.start),
          weeks: v.weeks,
          horizon_weeks: 8,
        },
      }),
    onSuccess: done,
  });
  const override = useMutation({
    mutationFn: (v: { shift_id: number; contact_ids: number[]; date: Dayjs }) =>
      api.call(r.addOverride, { body: { shift_id: v.shift_id, contact_ids: v.contact_ids, date: day(v.date) } }),
    onSuccess: done,
  });
  const shiftLabel = (s: DutyShift) =>
    `${s.name} ${s.start}–${s.end} · ${siteName(s.device_group_id, t('dutyUi.everySite'))}`;
  // Rotations and overrides are arranged on the shifts the user may change.
  const shiftOptions = (shifts.data ?? [])
    .filter((s) => s.editable)
    .map((s) => ({ value: s.id, label: shiftLabel(s) }));
  const contactOptions = (contacts.data ?? []).map((c) => ({
    value: c.id,
    label: c.name,
  }));

  // One row per shift, one column per day.
  const grid = useMemo(() => {
    const byKey = new Map<string, DutyEntry[]>();
    for (const e of table.data ?? [])
      byKey.set(`${e.shift_id}|${e.date}`, [...(byKey.get(`${e.shift_id}|${e.date}`) ?? []), e]);
    return { byKey, days: Array.from({ length: 14 }, (_, i) => from.add(i, 'day')) };
  }, [table.data, from]);

  return (
    <Flex vertical gap={16} data-testid="duty-arrange">
      <Card
        size="small"
        title={t('dutyUi.onDutyNow')}
        extra={<Button onClick={() => void downloadFile(routeUrl(r.ical), {}, 'duty.ics')}>{t('dutyUi.ical')}</Button>}
      >
        <Space wrap data-testid="duty-now">
          {(now.data ?? []).length === 0
            ? t('dutyUi.nobody')
            : (now.data ?? []).map((e) => <Tag key={e.id}>{`${e.shift_name}: ${e.contact_name}`}</Tag>)}
        </Space>
      </Card>
      <Card size="small" title={t('dutyUi.shifts')}>
        {canEdit && (
          <Form layout="inline" onFinish={(v) => addShift.mutate(v)} style={{ marginBottom: 12 }}>
            <Form.Item name="name" rules={[{ required: true, message: t('dutyUi.name') }]}>
              <Input placeholder={t('dutyUi.name')} aria-label={t('dutyUi.name')} />
            </Form.Item>
            <Form.Item
              name="start"
              rules={[{ required: true, pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: 'HH:MM' }]}
            >
              <Input placeholder={t('dutyUi.start')} aria-label={t('dutyUi.start')} style={{ width: 150 }} />
            </Form.Item>
            <Form.Item name="end" rules={[{ required: true, pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: 'HH:MM' }]}>
              <Input placeholder={t('dutyUi.end')} aria-label={t('dutyUi.end')} style={{ width: 150 }} />
            </Form.Item>
            <Form.Item
              name="device_group_id"
              tooltip={restricted ? undefined : t('dutyUi.everySiteHelp')}
              rules={restricted ? [{ required: true, message: t('dutyUi.site') }] : []}
            >
              <SiteSelect
                allowClear
                placeholder={restricted ? t('dutyUi.site') : t('dutyUi.everySite')}
                ariaLabel={t('dutyUi.site')}
              />
            </Form.Item>
            <Button htmlType="submit" type="primary">
              {t('common.add')}
            </Button>
          </Form>
        )}
        <Space wrap>
          {(shifts.data ?? []).map((s) => (
            <Tag
              key={s.id}
              closable={canEdit && s.editable}
              onClose={(e) => (e.preventDefault(), deleteShift.mutate(s.id))}
            >
              {shiftLabel(s)}
            </Tag>
          ))}
        </Space>
      </Card>
      {canEdit && (
        <Card size="small" title={t('dutyUi.rotation')}>
          <Form layout="inline" onFinish={(v) => rotate.mutate(v)} initialValues={{ weeks: 1, start: dayjs() }}>
            <Form.Item name="shift_id" rules={[{ required: true, message: t('dutyUi.shift') }]}>
              <Select
                placeholder={t('dutyUi.shift')}
                aria-label={t('dutyUi.rotation') + t('dutyUi.shift')}
                options={shiftOptions}
                style={{ width: 180 }}
              />
            </Form.Item>
            <Form.Item name="contact_ids" rules={[{ required: true, message: t('dutyUi.members') }]}>
              <Select
                mode="multiple"
                placeholder={t('dutyUi.members')}
                aria-label={t('dutyUi.members')}
                options={contactOptions}
                style={{ minWidth: 220 }}
              />
            </Form.Item>
            <Form.Item name="start">
              <DatePicker allowClear={false} />
            </Form.Item>
            <Form.Item name="weeks" label={t('dutyUi.weeks')}>
              <InputNumber min={1} max={52} />
            </Form.Item>
            <Button htmlType="submit" type="primary">
              {t('dutyUi.generate')}
            </Button>
          </Form>
          <Form
            layout="inline"
            onFinish={(v) => override.mutate(v)}
            initialValues={{ date: dayjs() }}
            style={{ marginTop: 12 }}
          >
            <Form.Item name="shift_id" rules={[{ required: true, message: t('dutyUi.shift') }]}>
              <Select
                placeholder={t('dutyUi.shift')}
                aria-label={t('dutyUi.override') + t('dutyUi.shift')}
                options={shiftOptions}
                style={{ width: 180 }}
              />
            </Form.Item>
            <Form.Item name="contact_ids" rules={[{ required: true, message: t('dutyUi.members') }]}>
              <Select
                mode="multiple"
                placeholder={t('dutyUi.members')}
                options={contactOptions}
                style={{ minWidth: 220 }}
              />
            </Form.Item>
            <Form.Item name="date">
              <DatePicker allowClear={false} />
            </Form.Item>
            <Button htmlType="submit">{t('dutyUi.override')}</Button>
          </Form>
        </Card>
      )}
      <Card
        size="small"
        title={t('dutyUi.table')}
        extra={
          <Space>
            <Button onClick={() => setFrom(from.subtract(14, 'day'))}>‹</Button>
            <span>{`${day(from)} – ${day(to)}`}</span>
            <Button onClick={() => setFrom(from.add(14, 'day'))}>›</Button>
          </Space>
        }
      >
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: true }}
          dataSource={shifts.data ?? []}
          columns={[
            { title: t('dutyUi.shift'), fixed: 'left', render: (_, s) => shiftLabel(s) },
            ...grid.days.map((d) => ({
              title: d.format('MM-DD dd'),
              key: day(d),
              render: (_: unknown, s: { id: number }) =>
                (grid.byKey.get(`${s.id}|${day(d)}`) ?? []).map((e) => (
                  <Tag key={e.id} color={e.override ? 'orange' : 'blue'}>
                    {e.contact_name}
                  </Tag>
                )),
            })),
          ]}
        />
      </Card>
    </Flex>
  );
};
