import { Col, Form, Input } from 'antd';
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
