import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { api } from '../api/client.ts';

/** The time periods by name (the monitoring pages share the key). */
export const periodsQuery = queryOptions({
  queryKey: ['monitoring', 'periods'],
  queryFn: () => api.call(monitoringRoutes.listTimePeriods, { query: { page: 1, limit: 1000 } }),
});

/**
 * A time-period picker by name; the value is the period's id, 0 being `noneLabel` (always, any
 * time). A period deleted since keeps showing as the id until the user picks another.
 */
export const PeriodSelect = ({
  id,
  value,
  onChange,
  noneLabel,
}: {
  /** Set by a Form.Item, so that its label names the picker. */
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
  noneLabel: string;
}) => {
  const periods = useQuery(periodsQuery);
  const options = [
    { value: 0, label: noneLabel },
    ...(periods.data?.data ?? []).map((p) => ({ value: p.id, label: p.name })),
  ];
  return <Select id={id} value={value ?? 0} onChange={onChange} options={options} />;
};
