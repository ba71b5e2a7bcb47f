import { checkPassword, type PasswordRule } from '@sitewatch/contract';
import { authRoutes } from '@sitewatch/contract/auth';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Flex, Form, Input, Modal } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../api/client.ts';
import { clearTokens } from '../../../api/tokens.ts';
import { ConfirmPasswordItem } from '../../../components/confirm-password-item.tsx';
import { validValues } from '../../../components/form-rules.ts';
import { encryptAll, loginParamsQuery, newCaptchaId, pwdComplexityQuery } from '../api.ts';
import { CaptchaImage } from './captcha.tsx';

interface Values {
  user_name: string;
  old_password: string;
  new_password: string;
  confirm: string;
  captcha_code: string;
}

/** Why the change is forced: 1 rules, 2 expired, 3 first login with an issued password. */
export type ForcedScene = 1 | 2 | 3;

const sceneText = {
  1: 'login.dialog.tipComplexity',
  2: 'login.dialog.tipExpired',
  3: 'login.dialog.tipFirstLogin',
} as const;

/**
 * The change-password dialog of the login page (000 §2.3, §4.5, §5): 970 px, not closable by a
 * click outside; the new password is checked against the server's rules as it is typed.
 */
export const ForcedPasswordDialog = ({
  open,
  scene,
  userName,
  onDone,
  onCancel,
}: {
  open: boolean;
  scene: ForcedScene | null;
  userName: string;
  onDone: () => void;
  onCancel: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const params = useQuery({ ...loginParamsQuery, enabled: open });
  const rules = useQuery({ ...pwdComplexityQuery, enabled: open });
  const [captchaId, setCaptchaId] = useState<string | null>(null);
  const captchaOn = params.data?.captcha_enabled ?? false;
  const refreshCaptcha = useCallback(() => void newCaptchaId().then(setCaptchaId), []);

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ user_name: userName });
    if (captchaOn) refreshCaptcha();
  }, [open, userName, captchaOn, form, refreshCaptcha]);

  const ruleText = (rule: PasswordRule) =>
    rule === 'minLength' && rules.data
      ? `${t('password.rules.minLength')} (${rules.data.opt_min_len})`
      : t(`password.rules.${rule}`);

  const submit = async () => {
    const values = await validValues(form);
    if (!values || !params.data) return;
    try {
      const [oldEnc, newEnc] = await encryptAll(params.data.public_key, [values.old_password, values.new_password]);
      await api.call(authRoutes.passwordChangeWithoutLogin, {
        body: {
          user_name: values.user_name,
          old_password: oldEnc ?? '',
          new_password: newEnc ?? '',
          captcha_id: captchaId ?? '',
          captcha_code: values.captcha_code ?? '',
        },
      });
      void message.success(t('login.dialog.changed'));
      clearTokens();
      form.resetFields();
      onDone();
    } catch (err) {
      const fields =
        err instanceof ApiError ? (err.data as { fields?: { message: string }[] } | null)?.fields : undefined;
      const reasons = fields?.map((f) => t(`password.rules.${f.message as PasswordRule}`, f.message)).join('；');
      const text = err instanceof ApiError && err.message ? err.message : t('login.dialog.changeFailed');
      void message.warning(reasons && !text.includes(reasons) ? `${text} ${reasons}` : text);
      if (captchaOn) refreshCaptcha();
    }
  };

  return (
    <Modal
      open={open}
      width={970}
      maskClosable={false}
      keyboard={false}
      title={t('login.dialog.title')}
      onOk={submit}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="forced-password-dialog"
    >
      {scene && <Alert type="warning" showIcon title={t(sceneText[scene])} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        name="change_password"
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 17 }}
        preserve={false}
      >
        <Form.Item
          name="user_name"
          label={t('login.dialog.account')}
          rules={[{ required: true, message: t('login.dialog.accountRequired') }]}
        >
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="old_password"
          label={t('login.dialog.old')}
          rules={[{ required: true, message: t('login.dialog.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={t('login.dialog.new')}
          rules={[
            { required: true, message: t('login.dialog.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string) => {
                if (!value || !rules.data) return Promise.resolve();
                const broken = checkPassword(
                  {
                    password: value,
                    userName: getFieldValue('user_name') ?? '',
                    oldPassword: getFieldValue('old_password'),
                  },
                  rules.data,
                );
                return broken.length ? Promise.reject(new Error(broken.map(ruleText).join('；'))) : Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <ConfirmPasswordItem
          name="confirm"
          of="new_password"
          label={t('login.dialog.confirm')}
          mismatch={t('login.dialog.mismatch')}
        />
        {captchaOn && (
          <Form.Item label={t('login.captcha')} htmlFor="change_password_captcha_code" required>
            <Flex gap={8} align="center">
              <Form.Item
                name="captcha_code"
                noStyle
                rules={[{ required: true, message: t('login.dialog.captchaRequired') }]}
              >
                <Input style={{ width: 160 }} autoComplete="off" />
              </Form.Item>
              <CaptchaImage id={captchaId} onRefresh={refreshCaptcha} />
            </Flex>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
};
