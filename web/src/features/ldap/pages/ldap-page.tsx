import { useQuery } from '@tanstack/react-query';
import { Alert, Flex, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { ldapSettingsQuery, useLdapFunctions } from '../api.ts';
import { RemoteUsers } from '../components/remote-users.tsx';
import { SettingsForm } from '../components/settings-form.tsx';

/** /setting_LDAP (menu 224): the directory settings and its users to import (002 §2.3, §6). */
export const LdapPage = () => {
  const { t } = useTranslation();
  const settings = useQuery(ldapSettingsQuery);
  const { canEdit, canImport } = useLdapFunctions();
  if (settings.isLoading) return <Spin />;
  if (!settings.data) {
    const error = settings.error instanceof ApiError ? settings.error.message : t('common.operationFailed');
    return <Alert type="error" showIcon message={error} />;
  }
  return (
    <Flex vertical gap={16}>
      <SettingsForm settings={settings.data} canEdit={canEdit} />
      <RemoteUsers
        enabled={settings.data.enabled}
        canImport={canImport}
        defaults={{
          role_ids: settings.data.default_role_ids,
          user_group_id: settings.data.default_user_group_id,
        }}
      />
    </Flex>
  );
};
