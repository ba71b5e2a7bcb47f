import { authRoutes } from '@sitewatch/contract/auth';
import { recoveryRoutes } from '@sitewatch/contract/recovery';
import { Alert, App, Form, Input, Modal } from 'antd';
import { use, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { ConfirmPasswordItem } from '../../../components/confirm-password-item.tsx';
import { allTextsLoaded, loadAllTexts } from '../../../i18n/index.ts';

/**
 * The recovery of a locked-out administrator on the login page (`#type=recovery`; docs/recovery.md):
 * the code `npm run recovery-code` printed on the box, then the administrator's new password.
 */
export const RecoveryDialog = ({ onClose }: { onClose: () => void }) => {
  if (!allTextsLoaded()) use(loadAllTexts());
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ code: string; password: string; confirm: string }>();
  const [ticket, setTicket] = useState<{ token: string; user: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    setBusy(true);
    try {
      if (!ticket) {
        const answer = await api.call(recoveryRoutes.rootLogin, { body: { code: values.code } });
        setTicket({ token: answer.reset_token, user: answer.user_name });
      } else {
        const { public_key } = await api.call(authRoutes.loginParams);
        const new_password = await encryptForServer(public_key, values.password);
        await api.call(recoveryRoutes.restPassword, { body: { reset_token: ticket.token, new_password } });
        void message.success(t('recovery.done'));
        onClose();
      }
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : t('common.operationFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('recoveryUi.title')}
      okText={ticket ? t('recoveryUi.reset') : t('recoveryUi.next')}
      onOk={() => void submit()}
      confirmLoading={busy}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        {ticket ? (
          <>
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('recoveryUi.forUser', { user: ticket.user })}
            />
            <Form.Item
              name="password"
              label={t('recoveryUi.password')}
              rules={[{ required: true, message: t('recoveryUi.passwordRequired') }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <ConfirmPasswordItem
              name="confirm"
              of="password"
              label={t('recoveryUi.confirm')}
              mismatch={t('recoveryUi.mismatch')}
            />
          </>
        ) : (
          <>
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('recoveryUi.how')} />
            <Form.Item
              name="code"
              label={t('recoveryUi.code')}
              rules={[{ required: true, message: t('recovery.codeEmpty') }]}
            >
              <Input autoComplete="off" placeholder="XXXX-XXXX-XXXX" />
            </Form.Item>
          </>
        )}
        {error && <Alert type="error" title={error} data-testid="recovery-error" />}
      </Form>
    </Modal>
  );
};
