import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadPair } from '../api.ts';

/** One PEM file chosen in the browser, read as text (nothing is sent until Install). */
const PemPicker = ({
  label,
  file,
  onPick,
}: {
  label: string;
  file: { name: string } | null;
  onPick: (name: string, text: string) => void;
}) => (
  <Space>
    <Upload
      accept=".pem,.crt,.cer,.key,.txt"
      showUploadList={false}
      maxCount={1}
      beforeUpload={async (f) => {
        onPick(f.name, await f.text());
        return false;
      }}
    >
      <Button>{label}</Button>
    </Upload>
    <span>{file?.name ?? ''}</span>
  </Space>
);

/** Upload of a certificate (chain) and its private key, checked by the server to match; the password confirms it. */
export const UploadCard = ({ canEdit }: { canEdit: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [cert, setCert] = useState<{ name: string; text: string } | null>(null);
  const [key, setKey] = useState<{ name: string; text: string } | null>(null);
  const [password, setPassword] = useState('');
  const install = useMutation({
    mutationFn: () => uploadPair({ cert_file: cert?.text ?? '', key_file: key?.text ?? '' }, password),
    onSuccess: (state) => {
      void message.success(t('httpsUi.upload.installed', { subject: state.certificate?.subject ?? '' }));
      setPassword('');
      client.setQueryData(['https'], state);
    },
  });
  return (
    <Card title={t('httpsUi.upload.title')}>
      <Form layout="vertical" disabled={!canEdit}>
        <Form.Item label={t('httpsUi.upload.cert')} extra={t('httpsUi.upload.certHelp')}>
          <PemPicker
            label={t('httpsUi.upload.chooseCert')}
            file={cert}
            onPick={(name, text) => setCert({ name, text })}
          />
        </Form.Item>
        <Form.Item label={t('httpsUi.upload.key')} extra={t('httpsUi.upload.keyHelp')}>
          <PemPicker label={t('httpsUi.upload.chooseKey')} file={key} onPick={(name, text) => setKey({ name, text })} />
        </Form.Item>
        <Form.Item label={t('httpsUi.upload.password')}>
          <Input.Password
            aria-label={t('httpsUi.upload.password')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            style={{ maxWidth: 320 }}
          />
        </Form.Item>
        <Button
          type="primary"
          loading={install.isPending}
          disabled={!cert || !key || password === ''}
          onClick={() => install.mutate()}
        >
          {t('httpsUi.upload.install')}
        </Button>
      </Form>
    </Card>
  );
};
