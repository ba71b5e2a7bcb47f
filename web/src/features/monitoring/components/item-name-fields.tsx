import type { ItemPurpose } from '@sitewatch/contract/monitoring';
import { Col, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '../../../components/form-rules.ts';

/** An item's (or a template point's) name, cell name and unit; the unit is narrower where more follows on the row. */
export const ItemNameFields = ({ unitSpan = 8 }: { unitSpan?: number }) => {
  const { t } = useTranslation();
  const rules = useFieldRules();
  return (
    <>
      <Col span={8}>
        <Form.Item rules={rules} name="name" label={t('monitoringUi.items.name')} required>
          <Input maxLength={64} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item rules={rules} name="item_cell_name" label={t('monitoringUi.items.cellName')}>
          <Input maxLength={64} />
        </Form.Item>
      </Col>
      <Col span={unitSpan}>
        <Form.Item rules={rules} name="unit" label={t('monitoringUi.items.unit')}>
          <Input maxLength={16} />
        </Form.Item>
      </Col>
    </>
  );
};

/**
 * What an item (or the items made from a template point) measures: the heat map draws room
 * temperatures only (docs/site-map.md "Heat map"), never a battery's or a device's internal one.
 */
export const ItemPurposeField = ({
  span = 8,
  name = 'purpose',
  keep = false,
}: {
  span?: number;
  name?: string | string[];
  /** A bulk edit: empty by default (the items keep theirs), clearable back to that. */
  keep?: boolean;
}) => {
  const { t } = useTranslation();
  const labels: Record<ItemPurpose, string> = {
    '': t('monitoringUi.items.purposeNone'),
    room_temperature: t('monitoringUi.items.purposeRoomTemperature'),
    room_humidity: t('monitoringUi.items.purposeRoomHumidity'),
  };
  return (
    <Col span={span}>
      <Form.Item
        name={name}
        label={t('monitoringUi.items.purpose')}
        tooltip={t('monitoringUi.items.purposeHelp')}
        {...(keep ? {} : { initialValue: '' })}
      >
        <Select allowClear={keep} options={Object.entries(labels).map(([value, label]) => ({ value, label }))} />
      </Form.Item>
    </Col>
  );
};
