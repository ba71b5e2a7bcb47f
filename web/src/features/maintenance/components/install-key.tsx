import { authRoutes } from '@sitewatch/contract/auth';
import { installKeyRoutes as k } from '@sitewatch/contract/maintenance';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Form, Input, Modal, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { saveBlob } from '../../../components/download.ts';
import { matches } from '../../../components/form-rules.ts';

interface Values {
  passphrase: string;
  repeat?: string;
  password: string;
}

const encrypted = async (password: string) =>
  encryptForServer((await api.call(authRoutes.loginParams)).public_key, password);

/**
 * The install key (docs/maintenance.md "The install key"): exported sealed with a passphrase, to
 * restore this install's packages elsewhere; imported from another install before restoring its
 * packages here. Both ask for the verification password (002 §5.3).
 */
export const InstallKeyButtons = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [mode, setMode] = useState<'export' | 'import' | null>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [form] = Form.useForm<Values>();
  const close = () => {
    setMode(null);
    setFile(null);
  };
  const run = useMutation({
    mutationFn: async (v: Values) => {
      const verify_password = await encrypted(v.password);
      if (mode === 'export') {
        const out = await api.call(k.export, { body: { passphrase: v.passphrase, verify_password } });
        saveBlob(new Blob([out.file], { type: 'application/json' }), out.filename);
        return t('backupPage.key.exported');
      }
      const done = await api.call(k.import, {
        body: { file: file?.text ?? '', passphrase: v.passphrase, verify_password },
      });
      return done.changed ? t('backupPage.key.imported', { count: done.resealed }) : t('backupPage.key.same');
    },
    onSuccess: (text) => {
      void message.success(text);
      close();
    },
  });
  const passphraseRule = { min: 8, max: 128, required: true, message: t('maintenance.validation.passphrase') };
  return (
    <>
      <Button onClick={() => setMode('export')}>{t('backupPage.key.export')}</Button>
      <Button onClick={() => setMode('import')}>{t('backupPage.key.import')}</Button>
      <Modal
        open={mode !== null}
        title={mode === 'export' ? t('backupPage.key.export') : t('backupPage.key.import')}
        onCancel={close}
        okButtonProps={{ loading: run.isPending }}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          <Alert
            type="info"
            showIcon
            message={mode === 'export' ? t('backupPage.key.exportHelp') : t('backupPage.key.importHelp')}
          />
          <Form form={form} layout="vertical" preserve={false} onFinish={(v) => run.mutate(v)}>
            {mode === 'import' && (
              <Form.Item
                label={t('backupPage.key.file')}
                required
                validateStatus={run.isError && !file ? 'error' : undefined}
              >
                <Upload
                  accept=".json"
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(f) => {
                    void f.text().then((text) => setFile({ name: f.name, text }));
                    return false;
                  }}
                >
                  <Button>{file ? <span data-raw-ok>{file.name}</span> : t('backupPage.key.choose')}</Button>
                </Upload>
              </Form.Item>
            )}
            <Form.Item name="passphrase" label={t('backupPage.key.passphrase')} rules={[passphraseRule]}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            {mode === 'export' && (
              <Form.Item
                name="repeat"
                label={t('backupPage.key.repeat')}
                dependencies={['passphrase']}
                rules={[passphraseRule, matches('passphrase', t('backupPage.key.mismatch'))]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            )}
            <Form.Item
              name="password"
              label={t('backupPage.verifyPassword')}
              rules={[{ required: true, message: t('users.verifyPasswordEmpty') }]}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
          </Form>
        </Flex>
      </Modal>
    </>
  );
};
