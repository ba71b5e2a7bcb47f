import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguagePicker, ThemePicker } from '../components/preference-pickers.tsx';

/** Any path without a page (002 §2.1 fallback). */
export const NotFoundPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex vertical align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('common.backHome')}
          </Button>
        }
      />
      <Flex gap={12}>
        <LanguagePicker />
        <ThemePicker />
      </Flex>
    </Flex>
  );
};
