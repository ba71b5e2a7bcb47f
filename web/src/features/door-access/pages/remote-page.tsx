import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { devicesQuery, useDoorCommand } from '../api.ts';

type Action = 'open' | 'normallyOpen' | 'normallyClosed' | 'controlled';
interface DoorLine {
  id: number;
  controller: string;
  online: boolean;
  number: number;
  nickname: string;
}

/** /door_remote_control (002 §2.1): every door of the user's sites; each command asks the verification password. */
export const DoorRemotePage = () => {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery);
  const command = useDoorCommand();
  const canControl = useCan('/door_remote_control', 'control');
  const { message } = App.useApp();
  const [asking, setAsking] = useState<{ door: DoorLine; action: Action } | null>(null);
  const [password, setPassword] = useState('');
  const doors: DoorLine[] = (devices.data?.list ?? []).flatMap((c) =>
    c.doors.map((d) => ({ id: d.id, controller: c.name, online: c.online, number: d.number, nickname: d.nickname })),
  );
  const send = async () => {
    if (!asking) return;
    try {
      await command.mutateAsync({ door_id: asking.door.id, action: asking.action, password });
      message.success(t('doorPage.commandDone'));
      setAsking(null);
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
    setPassword('');
  };
  return (
    <Card title={t('doorPage.remoteTitle')}>
      <Table<DoorLine>
        rowKey="id"
        loading={devices.isLoading}
        dataSource={doors}
        pagination={false}
        columns={[
          { title: t('doorPage.controller'), dataIndex: 'controller' },
          { title: t('doorPage.door'), render: (_, d) => d.nickname || t('doorPage.doorN', { n: d.number }) },
          {
            title: t('doorPage.state'),
            render: (_, d) => (
              <Tag color={d.online ? 'green' : 'default'}>
                {d.online ? t('doorPage.online') : t('doorPage.offline')}
              </Tag>
            ),
          },
          {
            title: t('doorPage.actions'),
            render: (_, d) =>
              canControl && (
                <Space>
                  {(['open', 'normallyOpen', 'normallyClosed', 'controlled'] as const).map((action) => (
                    <Button
                      key={action}
                      size="small"
                      type={action === 'open' ? 'primary' : 'default'}
                      onClick={() => setAsking({ door: d, action })}
                    >
                      {t(`doorPage.action.${action}`)}
                    </Button>
                  ))}
                </Space>
              ),
          },
        ]}
      />
      <Modal
        open={asking !== null}
        title={asking ? t(`doorPage.action.${asking.action}`) : ''}
        onOk={send}
        okButtonProps={{ disabled: password === '' }}
        confirmLoading={command.isPending}
        onCancel={() => {
          setAsking(null);
          setPassword('');
        }}
      >
        <Input.Password
          aria-label={t('doorPage.verifyPassword')}
          placeholder={t('doorPage.verifyPassword')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onPressEnter={send}
        />
      </Modal>
    </Card>
  );
};
