import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { matches } from './form-rules.ts';

/**
 * The field that repeats a new password: required (or, where a password is optional, required
 * once one is typed), and equal to the field `of`.
 */
export const ConfirmPasswordItem = ({
  name,
  of,
  label,
  mismatch,
  whenTyped = false,
}: {
  name: string;
  of: string;
  label: string;
  mismatch: string;
  whenTyped?: boolean;
}) => {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={name}
      label={label}
      dependencies={[of]}
      rules={[
        ({ getFieldValue }) => ({
          required: !whenTyped || Boolean(getFieldValue(of)),
          message: t('login.dialog.confirmRequired'),
        }),
        matches(of, mismatch),
      ]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
};
