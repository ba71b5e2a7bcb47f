import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { validValues } from '../../../components/form-rules.ts';

/** Asks for the remarks every alarm operation needs (000 §5: remarks must be non-empty). */
export const RemarksDialog = ({
  open,
  title,
  onOk,
  onCancel,
}: {
  open: boolean;
  title: string;
  onOk: (remarks: string) => Promise<unknown>;
  onCancel: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ remarks: string }>();
  return (
    <Modal
      open={open}
      title={title}
      destroyOnHidden
      onCancel={onCancel}
      onOk={async () => {
        const v = await validValues(form);
        if (!v) return;
        await onOk(v.remarks.trim());
        form.resetFields();
      }}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="remarks"
          label={t('alarmPages.remarks')}
          rules={[{ required: true, whitespace: true, message: t('alarmPages.remarksRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
};
