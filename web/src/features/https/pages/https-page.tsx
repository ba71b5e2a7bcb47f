import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { downloadRootCert, httpsPage, httpsQuery } from '../api.ts';
import { CertificateCard } from '../components/certificate-card.tsx';
import { SettingsCard } from '../components/settings-card.tsx';
import { UploadCard } from '../components/upload-card.tsx';

/** /setting_port (menu 420): the console's HTTPS: what is served, the certificate upload, the domain and ACME. */
export const HttpsPage = () => {
  const { t } = useTranslation();
  const state = useQuery(httpsQuery);
  const canEdit = useCan(httpsPage, 'edit');
  if (state.isLoading) return <Spin />;
  if (!state.data) {
    const error = state.error instanceof ApiError ? state.error.message : t('common.operationFailed');
    return <Alert type="error" showIcon message={error} />;
  }
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <CertificateCard state={state.data} onDownload={() => void downloadRootCert()} />
      </Col>
      <Col xs={24} xl={12}>
        <UploadCard canEdit={canEdit} />
      </Col>
      <Col xs={24} xl={12}>
        <SettingsCard state={state.data} canEdit={canEdit} />
      </Col>
    </Row>
  );
};
