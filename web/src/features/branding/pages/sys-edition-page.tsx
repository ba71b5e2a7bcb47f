import { languages } from '@sitewatch/contract';
import { brandingMenu, type EditionType, type InfoUpdate } from '@sitewatch/contract/branding';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Input, Select, Spin, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { editionInfoQuery } from '../../../session/edition.ts';
import { useCan } from '../../../session/permissions.ts';
import { editionsQuery, updateEdition, updateInfo } from '../api.ts';
import { LogoCard } from '../components/logo-card.tsx';

type Values = Required<Omit<InfoUpdate, 'language'>> & { language: InfoUpdate['language']; edition: EditionType };

const switches = ['sys_show', 'support_show', 'sys_info_show', 'filing_display'] as const;

/**
 * /setting_sys_edition (000 §2.5; 002 §2.1, §2.3, §3 Edition and branding): the edition in use and
 * its system name, the company, the flags of the login page's blocks, the filing line, the
 * installation's language and the two logos. Menu 418: viewing is always allowed (002 §2.2),
 * saving needs its edit function.
 */
export const SysEditionPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canEdit = useCan('/setting_sys_edition', 'edit');
  const editions = useQuery(editionsQuery);
  const info = useQuery(editionInfoQuery);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (info.data) form.setFieldsValue({ ...info.data });
  }, [info.data, form]);

  if (!editions.data || !info.data) return <Spin />;

  const save = async (values: Values) => {
    setSaving(true);
    try {
      const { edition, ...rest } = values;
      if (edition !== info.data?.edition) {
        const entry = editions.data.data.find((e) => e.type === edition);
        if (entry) await updateEdition(entry.id, { sys_name: rest.sys_name, sys_show: rest.sys_show, active: true });
      }
      await updateInfo(rest);
      void message.success(t('branding.saved'));
      await client.invalidateQueries({ queryKey: ['branding'] });
    } catch (err) {
      void message.error(err instanceof Error && err.message ? err.message : t('common.operationFailed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap={16} style={{ padding: 16, maxWidth: 1100 }} data-menu={brandingMenu}>
      <Card size="small" title={t('brandingUi.title')}>
        <Form<Values>
          form={form}
          layout="horizontal"
          labelCol={{ span: 5 }}
          wrapperCol={{ span: 14 }}
          disabled={!canEdit}
          onFinish={(v) => void save(v)}
        >
          <Form.Item name="edition" label={t('brandingUi.edition')}>
            <Select
              options={editions.data.data.map((e) => ({ value: e.type, label: t(`brandingUi.editions.${e.type}`) }))}
              style={{ maxWidth: 240 }}
            />
          </Form.Item>
          <Form.Item name="sys_name" label={t('brandingUi.sysName')} extra={t('brandingUi.sysNameHelp')}>
            <Input maxLength={64} placeholder={t('app.name')} />
          </Form.Item>
          <Form.Item name="company" label={t('brandingUi.company')}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="support_info" label={t('brandingUi.supportInfo')}>
            <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item name="sys_info" label={t('brandingUi.sysInfo')}>
            <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item label={t('brandingUi.filing')} style={{ marginBottom: 0 }}>
            <Flex gap={8}>
              <Form.Item name="filing_info" style={{ flex: 1 }}>
                <Input
                  maxLength={100}
                  placeholder={t('brandingUi.filingInfo')}
                  aria-label={t('brandingUi.filingInfo')}
                />
              </Form.Item>
              <Form.Item name="filing_number" style={{ flex: 1 }}>
                <Input
                  maxLength={64}
                  placeholder={t('brandingUi.filingNumber')}
                  aria-label={t('brandingUi.filingNumber')}
                />
              </Form.Item>
            </Flex>
          </Form.Item>
          <Form.Item label={t('brandingUi.show')}>
            <Flex gap={24} wrap>
              {switches.map((name) => (
                <Flex key={name} gap={8} align="center">
                  <Form.Item name={name} valuePropName="checked" noStyle>
                    <Switch size="small" aria-label={t(`brandingUi.flags.${name}`)} />
                  </Form.Item>
                  {t(`brandingUi.flags.${name}`)}
                </Flex>
              ))}
            </Flex>
          </Form.Item>
          <Form.Item name="language" label={t('brandingUi.language')} extra={t('brandingUi.languageHelp')}>
            <Select
              options={languages.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
              style={{ maxWidth: 240 }}
            />
          </Form.Item>
          <Form.Item wrapperCol={{ offset: 5 }}>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="branding-save">
              {t('common.save')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Flex gap={16} wrap>
        <LogoCard kind="login" canEdit={canEdit} />
        <LogoCard kind="main" canEdit={canEdit} />
      </Flex>
    </Flex>
  );
};
