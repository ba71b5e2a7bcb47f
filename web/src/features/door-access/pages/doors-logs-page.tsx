import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { devicesQuery, logsQuery } from '../api.ts';
import { chosenDoor, DoorMenu } from '../components/door-menu.tsx';
import { type LogKind, LogTable, logKinds } from '../components/log-table.tsx';

const PAGE_SIZE = 20;

/**
 * /doors_logs (002 §2.1): the log door by door: the doors of the user's sites by controller, and
 * the chosen door's records (swipes, door events, alarms), newest first, refreshed every 5 s.
 */
export const DoorsLogsPage = () => {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery);
  const controllers = devices.data?.list ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const [kind, setKind] = useState<LogKind | undefined>();
  const [page, setPage] = useState(1);
  const door = chosenDoor(controllers, chosen);
  const doorId = door?.id ?? null;
  const logs = useQuery({
    ...logsQuery({ page, page_size: PAGE_SIZE, ...(doorId ? { door_id: doorId } : {}), ...(kind ? { kind } : {}) }),
    enabled: doorId !== null,
    refetchInterval: 5000,
  });
  return (
    <Row gutter={12}>
      <Col flex="260px">
        <DoorMenu
          controllers={controllers}
          doorId={doorId}
          onChoose={(id) => {
            setChosen(id);
            setPage(1);
          }}
        />
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          title={
            door ? (
              <>
                {`${door.controller.name} · ${door.nickname || t('doorPage.doorN', { n: door.number })}`}{' '}
                <Tag color={door.controller.online ? 'green' : 'default'}>
                  {door.controller.online ? t('doorPage.online') : t('doorPage.offline')}
                </Tag>
              </>
            ) : (
              t('doorPage.doorsLogsTitle')
            )
          }
          extra={
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('doorPage.kind')}
              aria-label={t('doorPage.kind')}
              value={kind}
              onChange={(v) => {
                setKind(v);
                setPage(1);
              }}
              options={logKinds.map((k) => ({ value: k, label: t(`doorPage.kinds.${k}`) }))}
            />
          }
        >
          <LogTable
            rows={doorId ? (logs.data?.list ?? []) : []}
            total={logs.data?.total ?? 0}
            page={page}
            pageSize={PAGE_SIZE}
            loading={logs.isLoading && doorId !== null}
            onPage={setPage}
            without={['controller', 'door']}
          />
        </Card>
      </Col>
    </Row>
  );
};
