import { firewallRuleInput } from '@sitewatch/contract/firewall';
import { Checkbox, Form, Input, Modal, Radio } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { contractRule, validValues } from '../../../components/form-rules.ts';
import type { RuleDraft } from '../api.ts';

const rule = [contractRule(firewallRuleInput)];
const blank: RuleDraft = { direction: 'in', source: '', port: '', authorised: true, Disabled: false, remark: '' };

/** Adds or edits one rule (002 §3): checked with the contract's own messages (002 §5.3) as it is typed. */
export const RuleDialog = ({
  open,
  initial,
  onCancel,
  onDone,
}: {
  open: boolean;
  initial: RuleDraft | null;
  onCancel: () => void;
  onDone: (rule: RuleDraft) => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleDraft>();
  useEffect(() => {
    if (open) form.setFieldsValue(initial ?? blank);
  }, [open, initial, form]);
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    onDone({ ...(initial ?? blank), ...values, source: values.source.trim(), port: values.port.trim() });
  };
  return (
    <Modal
      open={open}
      title={initial ? t('firewallPage.editRule') : t('firewallPage.addRule')}
      onCancel={onCancel}
      onOk={() => void submit()}
      okText={t('firewallPage.next')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="firewall_rule" initialValues={blank}>
        <Form.Item name="direction" label={t('firewallPage.direction')}>
          <Radio.Group
            options={[
              { value: 'in', label: t('firewallPage.directionIn') },
              { value: 'out', label: t('firewallPage.directionOut') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="source"
          label={t('firewallPage.source')}
          rules={rule}
          required
          extra={t('firewallPage.sourceHelp')}
        >
          <Input placeholder="192.168.1.0/24" autoComplete="off" />
        </Form.Item>
        <Form.Item name="port" label={t('firewallPage.port')} rules={rule} required extra={t('firewallPage.portHelp')}>
          <Input placeholder="80:80" autoComplete="off" />
        </Form.Item>
        <Form.Item name="authorised" label={t('firewallPage.authorised')}>
          <Radio.Group
            options={[
              { value: true, label: t('firewallPage.allow') },
              { value: false, label: t('firewallPage.deny') },
            ]}
          />
        </Form.Item>
        <Form.Item name="Disabled" valuePropName="checked">
          <Checkbox>{t('firewallPage.disabledFlag')}</Checkbox>
        </Form.Item>
        <Form.Item name="remark" label={t('firewallPage.remark')} rules={rule}>
          <Input maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
