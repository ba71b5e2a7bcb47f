import { automationRoutes } from '@sitewatch/contract/automation';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';

/**
 * The item's location (002 §3 "location id"): a site of the site tree, typically a room or cabinet
 * under the device's site; 0 is none (docs/monitoring.md, "Item references").
 */
export const LocationSelect = ({
  id,
  value,
  onChange,
}: {
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
}) => {
  const { t } = useTranslation();
  return (
    <SiteSelect
      id={id}
      value={value || null}
      onChange={(site) => onChange?.(site ?? 0)}
      allowClear
      placeholder={t('monitoringUi.items.noLocation')}
    />
  );
};

/**
 * The overrun and recovery actions: the actions of the automation area (docs/automation.md), by
 * name; "none" is 0. Without the actions page's view grant the list cannot be read, and the select
 * keeps what is set (an action set earlier through the API or an import stays as it is).
 */
export const ActionSelect = ({
  id,
  value,
  onChange,
}: {
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
}) => {
  const { t } = useTranslation();
  const actions = useQuery({
    queryKey: ['automation', 'all-actions'],
    queryFn: () => api.call(automationRoutes.actions, { query: { page: 1, limit: 1000 } }),
    retry: false,
  });
  const options = [
    { value: 0, label: t('monitoringUi.items.noAction') },
    ...(actions.data?.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];
  if (value && !options.some((o) => o.value === value))
    options.push({ value, label: t('monitoringUi.items.keptAction', { id: value }) });
  return <Select id={id} value={value ?? 0} onChange={onChange} options={options} disabled={!actions.data} />;
};
