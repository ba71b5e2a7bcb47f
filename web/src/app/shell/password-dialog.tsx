import { authRoutes } from '@sitewatch/contract/auth';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';
import { ConfirmPasswordItem } from '../../components/confirm-password-item.tsx';
import { validValues } from '../../components/form-rules.ts';
import { useSession } from '../../session/session.ts';

interface Values {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

/**
 * The in-session password dialog (000 §2.3, §5): a confirmation first, then the change; every
 * session of the user ends, so the user logs in again.
 */
export const PasswordDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { message, modal } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    modal.confirm({
      title: t('shell.password.confirm'),
      onOk: async () => {
        try {
          const { public_key } = await api.call(authRoutes.loginParams);
          await api.call(authRoutes.passwordChange, {
            body: {
              old_password: await encryptForServer(public_key, values.old_password),
              new_password: await encryptForServer(public_key, values.new_password),
            },
          });
          onClose();
          modal.success({
            title: t('shell.password.changed'),
            onOk: () => {
              useSession.getState().clear();
              navigate('/login', { replace: true });
            },
          });
        } catch (err) {
          void message.warning(err instanceof ApiError && err.message ? err.message : t('login.dialog.changeFailed'));
        }
      },
    });
  };
  return (
    <Modal
      open={open}
      title={t('shell.password.title')}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form form={form} name="session_password" layout="vertical" preserve={false}>
        <Form.Item
          name="old_password"
          label={t('shell.password.old')}
          rules={[{ required: true, message: t('login.dialog.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={t('shell.password.new')}
          rules={[{ required: true, message: t('login.dialog.newRequired') }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <ConfirmPasswordItem
          name="confirm_password"
          of="new_password"
          label={t('shell.password.repeat')}
          mismatch={t('shell.password.mismatch')}
        />
      </Form>
    </Modal>
  );
};
