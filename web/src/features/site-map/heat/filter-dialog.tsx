import { Checkbox, Form, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { filterKinds, type HeatFilter } from './filter.ts';

/** The functional filter dialog of 001 §2 (standard or temperature-cloud mode; 温湿度, UPS, 电量仪 …). */
export const FilterDialog = ({
  open,
  value,
  onClose,
  onChange,
}: {
  open: boolean;
  value: HeatFilter;
  onClose: () => void;
  onChange: (filter: HeatFilter) => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<HeatFilter>();
  return (
    <Modal
      open={open}
      title={t('siteMap.heat.filter')}
      onCancel={onClose}
      onOk={() => {
        onChange(form.getFieldsValue());
        onClose();
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={value} preserve={false}>
        <Form.Item name="mode" label={t('siteMap.heat.mode')}>
          <Radio.Group
            options={[
              { value: 'standard', label: t('siteMap.heat.standard') },
              { value: 'cloud', label: t('siteMap.heat.cloud') },
            ]}
          />
        </Form.Item>
        <Form.Item name="kinds" label={t('siteMap.heat.kinds')}>
          <Checkbox.Group options={filterKinds.map((k) => ({ value: k, label: t(`siteMap.heat.${k}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
