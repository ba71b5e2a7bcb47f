import type { VideoDevice } from '@sitewatch/contract/video';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Radio, Space, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LiveVideo } from '../components/live-video.tsx';
import { StateTag, videoDevicesQuery } from '../components/state-tag.tsx';

type Pick = { deviceId: number; channelNo: number; preview: boolean; title: string };

/**
 * /video_live (002 §2.1): the channels of the granted sites by site and device; the chosen ones
 * play in a 1, 4 or 9 screen layout, each from one shared upstream on the server.
 */
export const VideoLivePage = () => {
  const { t } = useTranslation();
  const list = useQuery(videoDevicesQuery);
  const [layout, setLayout] = useState<1 | 4 | 9>(4);
  const [picked, setPicked] = useState<Pick[]>([]);
  const devices = list.data ?? [];
  const tree = useMemo(() => {
    const bySite = new Map<string, VideoDevice[]>();
    for (const d of devices) bySite.set(d.device_group_name, [...(bySite.get(d.device_group_name) ?? []), d]);
    return [...bySite].map(([site, ds]) => ({
      key: `s-${site}`,
      title: site,
      selectable: false,
      children: ds.map((d) => ({
        key: `d-${d.id}`,
        title: (
          <Space size={4}>
            {d.name}
            <StateTag device={d} />
          </Space>
        ),
        selectable: false,
        children: d.channels.map((c) => ({
          key: `c-${d.id}-${c.ChannelNo}`,
          title: c.Name || `${t('videoUi.channel')} ${c.ChannelNo}`,
        })),
      })),
    }));
  }, [devices, t]);
  const choose = (key: string) => {
    const [, d, c] = key.split('-');
    const device = devices.find((x) => x.id === Number(d));
    const channel = device?.channels.find((x) => x.ChannelNo === Number(c));
    if (!device || !channel) return;
    const pick = {
      deviceId: device.id,
      channelNo: channel.ChannelNo,
      preview: channel.Capacity.Preview,
      title: `${device.name} · ${channel.Name || channel.ChannelNo}`,
    };
    setPicked((p) =>
      [pick, ...p.filter((x) => x.deviceId !== pick.deviceId || x.channelNo !== pick.channelNo)].slice(0, layout),
    );
  };
  const columns = Math.sqrt(layout);
  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'stretch' }}>
      <Card size="small" title={t('videoUi.channels')} style={{ width: 280, flex: 'none' }}>
        {list.isPending ? null : devices.length === 0 ? (
          <Empty description={t('videoUi.noDevices')} />
        ) : (
          // Made once the list is there, so that every site and device opens.
          <Tree treeData={tree} defaultExpandAll onSelect={(keys) => keys[0] && choose(String(keys[0]))} />
        )}
      </Card>
      <Card
        size="small"
        title={t('videoUi.liveTitle')}
        style={{ flex: 1, minWidth: 0 }}
        extra={
          <Radio.Group
            value={layout}
            onChange={(e) => {
              setLayout(e.target.value);
              setPicked((p) => p.slice(0, e.target.value));
            }}
            optionType="button"
            size="small"
            options={[1, 4, 9].map((n) => ({ value: n, label: t('videoUi.screens', { count: n }) }))}
          />
        }
      >
        <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, 1fr)`, gap: 6 }}>
          {Array.from({ length: layout }, (_, i) => {
            const p = picked[i];
            return (
              <div
                key={p ? `${p.deviceId}-${p.channelNo}` : `empty-${i}`}
                style={{ aspectRatio: '16 / 9', background: '#111' }}
              >
                {p ? (
                  <div style={{ position: 'relative', width: '100%', height: '100%' }}>
                    <LiveVideo
                      deviceId={p.deviceId}
                      channelNo={p.channelNo}
                      preview={p.preview}
                      width="100%"
                      height="100%"
                    />
                    <span
                      style={{
                        position: 'absolute',
                        left: 6,
                        top: 4,
                        color: '#fff',
                        fontSize: 12,
                        textShadow: '0 0 2px #000',
                      }}
                    >
                      {p.title}
                    </span>
                  </div>
                ) : (
                  <div
                    style={{
                      color: '#888',
                      display: 'flex',
                      height: '100%',
                      alignItems: 'center',
                      justifyContent: 'center',
                    }}
                  >
                    {t('videoUi.pickChannel')}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </Card>
    </div>
  );
};
