import { customMenuInput, type MenuEntry } from '@sitewatch/contract/custom-menus';
import { Form, type FormInstance, Input, InputNumber, Radio, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { contractRule } from '../../../components/form-rules.ts';

type TreeNode = { value: number; title: string; children: TreeNode[] };

/** The groups an entry may sit under (entries without an address), as a tree; 0 is the top. */
export const groupTree = (rows: MenuEntry[], top: string, except?: number): TreeNode[] => {
  const under = (parent: number): TreeNode[] =>
    rows
      .filter((r) => r.parent_id === parent && r.group && r.id !== except)
      .sort((a, b) => b.weight - a.weight || a.id - b.id)
      .map((r) => ({ value: r.id, title: r.name, children: under(r.id) }));
  return [{ value: 0, title: top, children: under(0) }];
};

export interface EntryFormProps {
  open: boolean;
  form: FormInstance;
  editing: MenuEntry | null;
  rows: MenuEntry[];
  saving: boolean;
  onCancel: () => void;
  onFinish: (values: Record<string, unknown>) => void;
}

/**
 * The dialog of one entry (002 §3 "Custom menu"): name, icon, parent, address, open mode, show,
 * enable, sort number. A built-in entry keeps its name, parent and address (the asset entry's
 * address is its system's, which the administrator sets here).
 */
export const EntryForm = ({ open, form, editing, rows, saving, onCancel, onFinish }: EntryFormProps) => {
  const { t } = useTranslation();
  const builtin = editing !== null && editing.kind !== 'custom';
  const asset = editing?.kind === 'asset';
  const rule = (required = false) => contractRule(customMenuInput, { required });
  return (
    <FormModal
      open={open}
      form={form}
      width={560}
      title={editing ? t('customMenusUi.editTitle') : t('customMenusUi.addTitle')}
      onCancel={onCancel}
      confirmLoading={saving}
      onFinish={onFinish}
    >
      <Form.Item name="name" label={t('customMenusUi.name')} rules={builtin ? [] : [rule(true)]}>
        <Input maxLength={64} disabled={builtin} />
      </Form.Item>
      <Form.Item name="parent_id" label={t('customMenusUi.parent')} rules={builtin ? [] : [rule(true)]}>
        <TreeSelect
          disabled={builtin}
          treeDefaultExpandAll
          treeData={groupTree(rows, t('customMenusUi.top'), editing?.id)}
        />
      </Form.Item>
      {(!builtin || asset) && (
        <Form.Item
          name="url"
          label={asset ? t('customMenusUi.assetAddress') : t('customMenusUi.url')}
          extra={asset ? t('customMenusUi.assetHelp') : t('customMenusUi.urlHelp')}
          rules={[rule()]}
        >
          <Input maxLength={300} placeholder="https://" />
        </Form.Item>
      )}
      {(!builtin || asset) && (
        <Form.Item name="target" label={t('customMenusUi.target')}>
          <Radio.Group
            options={[
              { value: '_self', label: t('customMenusUi.targetSelf') },
              { value: '_blank', label: t('customMenusUi.targetBlank') },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item name="icon" label={t('customMenusUi.icon')} rules={[rule()]}>
        <Input maxLength={64} placeholder="link" />
      </Form.Item>
      <Form.Item name="weight" label={t('customMenusUi.weight')} rules={[rule(true)]}>
        <InputNumber min={1} max={999_999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="display" label={t('customMenusUi.display')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="enable" label={t('customMenusUi.enable')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
};
