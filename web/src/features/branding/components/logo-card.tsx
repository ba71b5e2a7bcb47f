import { type LogoKind, logoRules } from '@sitewatch/contract/branding';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandLogo } from '../../../components/brand-logo.tsx';
import { useEdition } from '../../../session/edition.ts';
import { removeLogo, uploadLogo } from '../api.ts';

/**
 * The check the browser makes before sending (002 §5.3): a jpg, png or jpeg name and at most 1 MB.
 * The server checks the content itself; this only spares a useless upload.
 */
export const logoProblem = (file: { name: string; size: number }): 'type' | 'size' | null => {
  if (!/\.(jpe?g|png)$/i.test(file.name)) return 'type';
  if (file.size > logoRules.maxBytes) return 'size';
  return null;
};

/** One logo: what is shown now, the recommended size (002 §9), upload and back to the product's own. */
export const LogoCard = ({ kind, canEdit }: { kind: LogoKind; canEdit: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const edition = useEdition();
  const [busy, setBusy] = useState(false);
  const size = logoRules.recommended[kind];
  const uploaded = (kind === 'login' ? edition.login_logo : edition.main_logo).url !== '';
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      void message.success(done);
      await client.invalidateQueries({ queryKey: ['branding'] });
    } catch (err) {
      void message.error(err instanceof Error && err.message ? err.message : t('common.operationFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t(`brandingUi.logo.${kind}`)} data-testid={`logo-card-${kind}`} style={{ flex: 1 }}>
      <Flex vertical gap={12}>
        <Flex
          align="center"
          justify="center"
          style={{ height: 100, background: 'var(--ant-color-fill-quaternary)', borderRadius: 6 }}
        >
          <BrandLogo kind={kind} maxHeight={kind === 'login' ? 76 : 60} fallbackSize={48} />
        </Flex>
        <Typography.Text type="secondary">
          {t('brandingUi.logo.rules', { width: size.width, height: size.height })}
        </Typography.Text>
        <Space>
          <Upload
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            showUploadList={false}
            disabled={!canEdit || busy}
            beforeUpload={(file) => {
              const problem = logoProblem(file);
              if (problem) void message.error(t(problem === 'type' ? 'branding.logoType' : 'branding.logoSize'));
              else void run(() => uploadLogo(kind, file), t('branding.logoUploaded'));
              return false;
            }}
          >
            <Button type="primary" loading={busy} disabled={!canEdit} data-testid={`logo-upload-${kind}`}>
              {t('brandingUi.logo.upload')}
            </Button>
          </Upload>
          {uploaded && (
            <Button
              disabled={!canEdit || busy}
              onClick={() => void run(() => removeLogo(kind), t('branding.logoRemoved'))}
            >
              {t('brandingUi.logo.remove')}
            </Button>
          )}
        </Space>
      </Flex>
    </Card>
  );
};
