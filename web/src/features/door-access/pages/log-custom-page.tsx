import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Input, Select } from 'antd';
import type dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tzOffset } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { devicesQuery, exportLogs, logsQuery } from '../api.ts';
import { type LogKind, LogTable, logKinds } from '../components/log-table.tsx';

interface Filter {
  controller_id?: number;
  door_id?: number;
  person?: string;
  kind?: LogKind;
  granted?: 'true' | 'false';
  start?: number;
  end?: number;
}

const PAGE_SIZE = 20;

/**
 * /door_log_custom (002 §2.1): the log searched by controller, door, person or card, type, result
 * and time range; the filtered rows (all of them, not the page) export as xlsx.
 */
export const DoorLogCustomPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canExport = useCan('/door_log_custom', 'export');
  const devices = useQuery(devicesQuery);
  const [draft, setDraft] = useState<Filter>({});
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [filter, setFilter] = useState<Filter>({});
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const logs = useQuery(logsQuery({ ...filter, page, page_size: PAGE_SIZE }));
  const controllers = devices.data?.list ?? [];
  const doors = controllers
    .filter((c) => draft.controller_id === undefined || c.id === draft.controller_id)
    .flatMap((c) =>
      c.doors.map((d) => ({ value: d.id, label: `${c.name} · ${d.nickname || t('doorPage.doorN', { n: d.number })}` })),
    );
  const set = (patch: Partial<Filter>) => setDraft((f) => ({ ...f, ...patch }));
  const search = () => {
    const person = draft.person?.trim();
    setFilter({
      ...draft,
      ...(person ? { person } : { person: undefined }),
      ...(range ? { start: range[0].unix(), end: range[1].unix() } : {}),
    });
    setPage(1);
    // The same filter again reads the log again (new records since).
    void logs.refetch();
  };
  const onExport = async () => {
    setExporting(true);
    try {
      await exportLogs({ ...filter, tz_offset: tzOffset() }, `${t('doorPage.customTitle')}.xlsx`);
    } catch (err) {
      void message.error(err instanceof Error ? err.message : t('common.operationFailed'));
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card title={t('doorPage.customTitle')}>
      <Flex wrap gap={8} style={{ marginBottom: 12 }}>
        <Select
          allowClear
          style={{ width: 180 }}
          aria-label={t('doorPage.controller')}
          placeholder={t('doorPage.controller')}
          value={draft.controller_id}
          onChange={(v) => set({ controller_id: v, door_id: undefined })}
          options={controllers.map((c) => ({ value: c.id, label: c.name }))}
        />
        <Select
          allowClear
          style={{ width: 200 }}
          aria-label={t('doorPage.door')}
          placeholder={t('doorPage.door')}
          value={draft.door_id}
          onChange={(v) => set({ door_id: v })}
          options={doors}
        />
        <Input
          allowClear
          style={{ width: 220 }}
          aria-label={t('doorPage.person')}
          placeholder={t('doorPage.personPlaceholder')}
          value={draft.person}
          onChange={(e) => set({ person: e.target.value })}
          onPressEnter={search}
        />
        <Select
          allowClear
          style={{ width: 130 }}
          aria-label={t('doorPage.kind')}
          placeholder={t('doorPage.kind')}
          value={draft.kind}
          onChange={(v) => set({ kind: v })}
          options={logKinds.map((k) => ({ value: k, label: t(`doorPage.kinds.${k}`) }))}
        />
        <Select
          allowClear
          style={{ width: 130 }}
          aria-label={t('doorPage.grantedFilter')}
          placeholder={t('doorPage.grantedFilter')}
          value={draft.granted}
          onChange={(v) => set({ granted: v })}
          options={[
            { value: 'true', label: t('doorPage.grantedYes') },
            { value: 'false', label: t('doorPage.grantedNo') },
          ]}
        />
        <DatePicker.RangePicker
          showTime
          aria-label={t('doorPage.timeRange')}
          value={range}
          onChange={(v) => setRange(v?.[0] && v[1] ? [v[0], v[1]] : null)}
        />
        <Button type="primary" onClick={search}>
          {t('doorPage.search')}
        </Button>
        {canExport && (
          <Button onClick={() => void onExport()} loading={exporting}>
            {t('doorPage.export')}
          </Button>
        )}
      </Flex>
      <LogTable
        rows={logs.data?.list ?? []}
        total={logs.data?.total ?? 0}
        page={page}
        pageSize={PAGE_SIZE}
        loading={logs.isLoading}
        onPage={setPage}
      />
    </Card>
  );
};
