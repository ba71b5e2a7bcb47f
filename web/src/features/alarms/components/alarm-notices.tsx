import { CloseOutlined, SoundOutlined } from '@ant-design/icons';
import { type AlarmRow, alarmRoutes } from '@sitewatch/contract/alarms';
import { dutyRoutes } from '@sitewatch/contract/duty';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Flex, List, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { pushClient } from '../../../api/push-client.ts';
import { formatTime } from '../../../components/time.ts';
import { useTopBarSlot } from '../../../components/top-bar-slot.ts';
import { useCan } from '../../../session/permissions.ts';
import { sounds, useAlarmNotices } from '../alarm-store.ts';
import { alarmParamsQuery, confirmAllAlarms, operateAlarm, orderFromAlarmPath } from '../api.ts';
import { alarmSoundUrl } from '../sound.ts';
import { RemarksDialog } from './remarks-dialog.tsx';

const time = (t: number) => formatTime(t);

/**
 * The alarm notices of the shell (000 §4.7, §6): new alarms from the push channel in a pop-up panel
 * with confirm (0) and disable (2) one at a time or confirm all; the looping sound until every
 * alarm is confirmed (none for a recovered label); a prompt when the browser blocks autoplay.
 */
export const AlarmNotices = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { notices, receive, remove, clear, switches, setSwitch } = useAlarmNotices();
  const params = useQuery(alarmParamsQuery);
  const audio = useRef<HTMLAudioElement | null>(null);
  const [blocked, setBlocked] = useState(false);
  // The panel opens for a new alarm; notices shown again after a reload wait behind a button.
  const [expanded, setExpanded] = useState(false);
  const slot = useTopBarSlot();
  const [pending, setPending] = useState<{ alarm: AlarmRow | null; action: 0 | 2 } | null>(null);
  const navigate = useNavigate();
  const canOrder = useCan('/work_order', 'add');

  useEffect(() => {
    // Alarms raised while no channel was up (a reload, a reconnect) are fetched once it is ready;
    // those there at the page's first read wait behind the folded panel's button, new ones open it.
    // With shift handover on, a user off duty is not shown them (the pushes mark it the same way).
    let firstRead = true;
    const seed = () =>
      void api
        .call(dutyRoutes.me)
        .catch(() => null)
        .then((me) =>
          me?.handover_enable && !me.on_duty
            ? null
            : api.call(alarmRoutes.review, { query: { page: 1, limit: 50, handling: 0 } }),
        )
        .then((page) => {
          if (!page) return;
          // After the first read, an open alarm not yet shown was raised while the channel was down
          // (a reconnect, a slow first connection): it opens the panel as its push would have.
          const shown = new Set(useAlarmNotices.getState().notices.map((n) => n.status_id));
          const raisedMeanwhile = !firstRead && page.data.some((a) => a.handling === 0 && !shown.has(a.status_id));
          firstRead = false;
          for (const a of [...page.data].reverse()) receive(a);
          if (raisedMeanwhile) setExpanded(true);
        })
        .catch(() => undefined);
    seed();
    const unsubscribe = pushClient.subscribe((m) => {
      if (m.type === 'ready') seed();
      if (m.type !== 'alarm') return;
      // Shift handover on and this user off duty: the lists follow, no pop-up and no sound.
      if (m.event === 'raise' && m.notice === false) {
        void client.invalidateQueries({ queryKey: ['alarms', 'list'] });
        return;
      }
      receive(m.alarm);
      if (m.event === 'raise') setExpanded(true);
      void client.invalidateQueries({ queryKey: ['alarms', 'list'] });
    });
    return () => {
      unsubscribe();
    };
  }, [receive, client]);

  const voice = (params.data?.voice_enable ?? true) && switches.voice;
  const popup = (params.data?.popup_enable ?? true) && switches.popup;
  const ringing = voice && notices.some(sounds);

  useEffect(() => {
    audio.current ??= Object.assign(new Audio(alarmSoundUrl()), { loop: true });
    const a = audio.current;
    if (ringing) {
      a.play().then(
        () => setBlocked(false),
        () => setBlocked(true),
      );
    } else {
      a.pause();
      a.currentTime = 0;
    }
  }, [ringing]);
  useEffect(() => () => audio.current?.pause(), []);

  const run = async (remarks: string) => {
    if (!pending) return;
    if (pending.alarm === null) {
      const r = await confirmAllAlarms(remarks);
      clear();
      void message.success(t('alarmPages.confirmedN', { n: r.confirmed }));
    } else {
      const row = await operateAlarm(pending.alarm, pending.action, remarks);
      remove(row.status_id);
      void message.success(t('common.operationSuccess'));
    }
    setPending(null);
    void client.invalidateQueries({ queryKey: ['alarms', 'list'] });
  };

  return (
    <>
      {(() => {
        const prompts = (
          <Space size={8}>
            {blocked && ringing && (
              // Short, its whole sentence in the tooltip: the bar has no room for it at 1366 px.
              <Tooltip title={t('alarmPages.unlockSound')}>
                <Button
                  type="primary"
                  danger
                  size="small"
                  icon={<SoundOutlined />}
                  aria-label={t('alarmPages.unlockSound')}
                  data-testid="alarm-sound-unlock"
                  onClick={() =>
                    audio.current?.play().then(
                      () => setBlocked(false),
                      () => undefined,
                    )
                  }
                >
                  {t('alarmPages.sound')}
                </Button>
              </Tooltip>
            )}
            {popup && !expanded && notices.length > 0 && (
              <Button size="small" danger data-testid="alarm-notices-open" onClick={() => setExpanded(true)}>
                {t('alarmPages.notices', { n: notices.length })}
              </Button>
            )}
          </Space>
        );
        // Beside the product name in the top bar; without the bar (fullShow) in its corner.
        return slot ? (
          createPortal(prompts, slot)
        ) : (
          <div style={{ position: 'fixed', top: 16, left: 300, zIndex: 999 }}>{prompts}</div>
        );
      })()}
      {popup && expanded && notices.length > 0 && (
        <Card
          size="small"
          data-testid="alarm-notices"
          data-ringing={ringing ? 'yes' : 'no'}
          title={t('alarmPages.notices', { n: notices.length })}
          style={{
            position: 'fixed',
            right: 24,
            bottom: 24,
            width: 420,
            zIndex: 999,
            boxShadow: '0 6px 16px rgba(0,0,0,.2)',
          }}
          extra={
            <Space>
              <Switch
                size="small"
                checked={switches.voice}
                checkedChildren={t('alarmPages.sound')}
                unCheckedChildren={t('alarmPages.sound')}
                onChange={(on) => setSwitch('voice', on)}
              />
              <Button
                size="small"
                onClick={() => {
                  if (!notices.some((n) => n.handling === 0 && n.status !== 1000)) {
                    void message.warning(t('alarmPages.nothingToConfirm'));
                    return;
                  }
                  setPending({ alarm: null, action: 0 });
                }}
              >
                {t('alarmPages.confirmAll')}
              </Button>
              <Button
                size="small"
                type="text"
                aria-label={t('alarmPages.close')}
                icon={<CloseOutlined />}
                onClick={() => setExpanded(false)}
              />
            </Space>
          }
        >
          <List
            size="small"
            style={{ maxHeight: 340, overflow: 'auto' }}
            dataSource={notices}
            renderItem={(n) => (
              <List.Item
                data-testid="alarm-notice"
                actions={
                  n.status === 1000
                    ? [
                        <Button key="x" size="small" type="link" onClick={() => remove(n.status_id)}>
                          {t('alarmPages.close')}
                        </Button>,
                      ]
                    : [
                        <Button key="c" size="small" type="link" onClick={() => setPending({ alarm: n, action: 0 })}>
                          {t('alarmPages.confirm')}
                        </Button>,
                        <Button
                          key="d"
                          size="small"
                          type="link"
                          danger
                          onClick={() => setPending({ alarm: n, action: 2 })}
                        >
                          {t('alarmPages.disable')}
                        </Button>,
                        ...(canOrder
                          ? [
                              <Button
                                key="o"
                                size="small"
                                type="link"
                                data-testid="alarm-notice-order"
                                onClick={() => {
                                  setExpanded(false);
                                  void navigate(orderFromAlarmPath(n.status_id));
                                }}
                              >
                                {t('alarmPages.toWorkOrder')}
                              </Button>,
                            ]
                          : []),
                      ]
                }
              >
                <Flex vertical gap={2} style={{ minWidth: 0 }}>
                  <Space size={6}>
                    {n.status === 1000 ? null : <Badge color={n.color || '#cf1322'} />}
                    <Typography.Text
                      strong
                    >{`${n.device_group_name} / ${n.device_name}${n.item_name ? ` / ${n.item_name}` : ''}`}</Typography.Text>
                  </Space>
                  <Space size={6} wrap>
                    <Tag color={n.status === 1000 ? 'green' : n.color || 'red'}>
                      {t(`alarmPages.label.${labelKey(n.status_label)}`)}
                    </Tag>
                    {n.value !== null && <Typography.Text>{n.value}</Typography.Text>}
                    {n.jitter > 0 && <Tag color="purple">{t('alarmPages.jitter', { pct: n.jitter })}</Tag>}
                    <Typography.Text type="secondary">{time(n.end_time ?? n.start_time)}</Typography.Text>
                  </Space>
                  {/* Why: the reason a point cannot be read, a device or camera does not answer, a door alarms. */}
                  {(n.kind === 'point_fault' || n.item_id === 0) && n.info ? (
                    <Typography.Text type="secondary" ellipsis={{ tooltip: n.info }} data-testid="alarm-notice-info">
                      {n.info}
                    </Typography.Text>
                  ) : null}
                </Flex>
              </List.Item>
            )}
          />
        </Card>
      )}
      <RemarksDialog
        open={pending !== null}
        title={
          pending?.alarm === null
            ? t('alarmPages.confirmAll')
            : pending?.action === 2
              ? t('alarmPages.disable')
              : t('alarmPages.confirm')
        }
        onOk={run}
        onCancel={() => setPending(null)}
      />
    </>
  );
};

/** The label keys the server sends (status_label), to their texts. */
export const labelKey = (label: string): 'abnormal' | 'unknown' | 'recovered' | 'pointFault' => {
  if (label === 'unknown' || label === 'recovered') return label;
  if (label === 'point_fault') return 'pointFault';
  return 'abnormal';
};
