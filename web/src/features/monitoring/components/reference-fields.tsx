import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
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
 * The overrun and recovery actions: the linkage actions of the automation area, which a later issue
 * brings. Until then there is nothing to choose, so the field says where actions are configured
 * instead of asking for a bare number; an action set earlier (through the API or an import) is kept.
 */
export const ActionSelect = ({ id, value }: { id?: string; value?: number }) => {
  const { t } = useTranslation();
  const options = [{ value: 0, label: t('monitoringUi.items.noAction') }];
  if (value) options.push({ value, label: t('monitoringUi.items.keptAction', { id: value }) });
  return <Select id={id} value={value ?? 0} options={options} disabled />;
};
