import type { RouteQuery } from '@sitewatch/contract';
import { formatValue } from '@sitewatch/contract';
import { type DataListRow, type DataListState, dataListStates, type reportsRoutes } from '@sitewatch/contract/reports';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Flex, Input, Segmented, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveWatch } from '../../../api/live.ts';
import { devicesQuery } from '../../../api/monitoring.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { stateOf, valueColor } from '../../../components/states.ts';
import { formatTime, tzOffset } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { dataListQuery, reportsApi } from '../api.ts';

type Query = RouteQuery<typeof reportsRoutes.dataList>;
type SortKey = NonNullable<Query['sort']>;

const stateLabels = {
  all: 'reportsUi.dataList.stateAll',
  normal: 'reportsUi.dataList.stateNormal',
  abnormal: 'reportsUi.dataList.stateAbnormal',
  alarm: 'reportsUi.dataList.stateAlarm',
  unknown: 'reportsUi.dataList.stateUnknown',
} as const satisfies Record<DataListState, string>;

// Items without display decimals keep this page's rounding to 2 decimals.
const formatRowValue = (row: DataListRow) => formatValue(row.value, { ...row, maxDecimals: 2 });

/**
 * /data_list (002 §2.1): the live value of every item of the user's sites in one table, with
 * filters by site (and its sub-sites), device, item name and state; sorted and paged by the
 * server, refreshed every 5 s; the filtered rows export as xlsx.
 */
export const DataListPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canExport = useCan('/data_list', 'export');
  const [site, setSite] = useState<number | null>(null);
  const [device, setDevice] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [state, setState] = useState<DataListState>('all');
  const [sort, setSort] = useState<{ sort: SortKey; order: 'asc' | 'desc' }>({ sort: 'site', order: 'asc' });
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [exporting, setExporting] = useState(false);

  const filters = {
    ...(site !== null ? { device_group_id: site } : {}),
    ...(device !== null ? { device_id: device } : {}),
    ...(name.trim() ? { name: name.trim() } : {}),
    state,
    ...sort,
  };
  const list = useQuery(dataListQuery({ ...filters, ...paging }));
  // Every granted site's new values arrive by push while the list is shown.
  useLiveWatch(null);
  const devices = useQuery(devicesQuery({ page: 1, limit: 1000, ...(site !== null ? { device_group_id: site } : {}) }));
  const resetPage = () => setPaging((p) => ({ ...p, page: 1 }));

  const onExport = async () => {
    setExporting(true);
    try {
      await reportsApi.exportDataList({ ...filters, tz_offset: tzOffset() }, `${t('menu.dataList')}.xlsx`);
    } catch (err) {
      void message.error(err instanceof Error ? err.message : t('common.operationFailed'));
    } finally {
      setExporting(false);
    }
  };

  const sortOrder = (key: SortKey) =>
    sort.sort === key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;
  const columns: ColumnsType<DataListRow> = [
    {
      key: 'site',
      title: t('reports.site'),
      dataIndex: 'site',
      sorter: true,
      sortOrder: sortOrder('site'),
      width: 150,
    },
    {
      key: 'device',
      title: t('reports.device'),
      dataIndex: 'device_name',
      sorter: true,
      sortOrder: sortOrder('device'),
      width: 150,
    },
    { key: 'item', title: t('reports.item'), dataIndex: 'name', sorter: true, sortOrder: sortOrder('item') },
    {
      key: 'value',
      title: t('reports.value'),
      sorter: true,
      sortOrder: sortOrder('value'),
      align: 'right',
      width: 130,
      render: (_, row) => (
        <Typography.Text strong style={{ color: valueColor(row.state, row.alarm_color) }} data-testid="data-value">
          {formatRowValue(row)}
        </Typography.Text>
      ),
    },
    {
      key: 'state',
      title: t('reports.state'),
      sorter: true,
      sortOrder: sortOrder('state'),
      width: 100,
      render: (_, row) => {
        const view = stateOf(row.state);
        const tag = <Tag color={view.color}>{t(view.key)}</Tag>;
        return row.info ? <Tooltip title={row.info}>{tag}</Tooltip> : tag;
      },
    },
    {
      key: 'alarm',
      title: t('reports.alarmLevel'),
      width: 110,
      render: (_, row) =>
        row.alarm ? (
          <Tag color={row.alarm.color || undefined}>{row.alarm.level_name}</Tag>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'last_check',
      title: t('reports.lastCheck'),
      sorter: true,
      sortOrder: sortOrder('last_check'),
      width: 170,
      render: (_, row) => formatTime(row.last_check),
    },
  ];

  return (
    <Card
      title={t('menu.dataList')}
      extra={<Typography.Text type="secondary">{t('reportsUi.dataList.live')}</Typography.Text>}
    >
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 12 }}>
        <Space wrap size={8}>
          <SiteSelect
            value={site}
            allowClear
            ariaLabel={t('reports.site')}
            placeholder={t('reportsUi.dataList.allSites')}
            onChange={(v) => {
              setSite(v);
              setDevice(null);
              resetPage();
            }}
          />
          <Select
            aria-label={t('reports.device')}
            style={{ width: 180 }}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('reportsUi.dataList.allDevices')}
            value={device ?? undefined}
            onChange={(v?: number) => {
              setDevice(v ?? null);
              resetPage();
            }}
            options={(devices.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
          />
          <Input.Search
            aria-label={t('reportsUi.dataList.itemName')}
            placeholder={t('reportsUi.dataList.itemName')}
            allowClear
            style={{ width: 200 }}
            onSearch={(v) => {
              setName(v);
              resetPage();
            }}
          />
          <Segmented
            value={state}
            onChange={(v) => {
              setState(v as DataListState);
              resetPage();
            }}
            options={dataListStates.map((s) => ({ value: s, label: t(stateLabels[s]) }))}
          />
        </Space>
        {canExport && (
          <Button onClick={() => void onExport()} loading={exporting}>
            {t('common.export')}
          </Button>
        )}
      </Flex>
      <Table<DataListRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isLoading}
        scroll={{ x: 980, y: 'max(240px, calc(100vh - 420px))' }}
        onChange={(pagination, _filters, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<DataListRow> | undefined;
          const key = (s?.columnKey as SortKey | undefined) ?? 'site';
          const order = s?.order === 'descend' ? 'desc' : 'asc';
          const next = s?.order
            ? { sort: key, order: order as 'asc' | 'desc' }
            : { sort: 'site' as const, order: 'asc' as const };
          const sortChanged = next.sort !== sort.sort || next.order !== sort.order;
          setSort(next);
          setPaging({ page: sortChanged ? 1 : (pagination.current ?? 1), limit: pagination.pageSize ?? 20 });
        }}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (total) => t('reportsUi.total', { total }),
        }}
      />
    </Card>
  );
};
