import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { useQuery } from '@tanstack/react-query';
import { App, Button, ColorPicker, Empty, Flex, Form, Input, InputNumber, Select, Switch, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import type { Editor } from '../../../editor/model/editor.ts';
import type { ComponentAnimation, ComponentEvent, ComponentRecord } from '../../../editor/model/records.ts';
import { animationNames } from '../render/animations.ts';
import { deviceKinds, switchOf } from '../render/component-view.tsx';
import { useEditorValue } from './use-editor.ts';

/** Kinds whose text is their propValue. */
const textKinds = new Set(['VText', 'VButton', 'SiteButton']);
/** 001 §4: switch types 1P–4P are 60, 120, 180, 240 wide and 170 high. */
const poleWidth = 60;
const switchHeight = 170;

/** The link of a device component (001 §4): the station page, or for electrical safety its own page. */
export const deviceLink = (record: ComponentRecord, deviceId: number | null) =>
  deviceId && record.type === 0
    ? record.kind === 'ElectricSafe'
      ? `/electricity_safe/distribution_power?deviceId=${deviceId}`
      : `/station?deviceId=${deviceId}`
    : '';

const Geometry = ({ editor, r }: { editor: Editor; r: ComponentRecord }) => {
  const { t } = useTranslation();
  const num = (key: 'left' | 'top' | 'width' | 'height' | 'rotate') => (
    <Form.Item label={t(`siteMap.editor.${key}`)} style={{ marginBottom: 8 }}>
      <InputNumber
        aria-label={t(`siteMap.editor.${key}`)}
        value={Math.round(r[key] * 100) / 100}
        disabled={r.locked}
        onChange={(v) =>
          v !== null && editor.updateComponent(r.id, { [key]: key === 'rotate' ? ((v % 360) + 360) % 360 : v })
        }
        style={{ width: '100%' }}
      />
    </Form.Item>
  );
  return (
    <>
      {num('left')}
      {num('top')}
      {num('width')}
      {num('height')}
      {num('rotate')}
    </>
  );
};

const Attributes = ({ editor, r, site }: { editor: Editor; r: ComponentRecord; site: number }) => {
  const { t } = useTranslation();
  const style = (patch: Partial<ComponentRecord['style']>) =>
    editor.updateComponent(r.id, { style: { ...r.style, ...patch } });
  const sw = switchOf(r);
  return (
    <Form layout="vertical" size="small" key={r.id}>
      <Form.Item label={t('siteMap.editor.label')} style={{ marginBottom: 8 }}>
        <Input
          aria-label={t('siteMap.editor.label')}
          defaultValue={r.label}
          maxLength={200}
          onBlur={(e) => e.target.value !== r.label && editor.updateComponent(r.id, { label: e.target.value })}
        />
      </Form.Item>
      {textKinds.has(r.kind) && (
        <Form.Item label={t('siteMap.editor.text')} style={{ marginBottom: 8 }}>
          <Input.TextArea
            aria-label={t('siteMap.editor.text')}
            defaultValue={typeof r.propValue === 'string' ? r.propValue : ''}
            maxLength={2000}
            onBlur={(e) =>
              e.target.value !== r.propValue && editor.updateComponent(r.id, { propValue: e.target.value })
            }
          />
        </Form.Item>
      )}
      {r.kind === 'SiteButton' && (
        <Form.Item label={t('siteMap.editor.targetSite')} style={{ marginBottom: 8 }}>
          {/* 001 §4: the target list excludes the current site. */}
          <SiteSelect
            ariaLabel={t('siteMap.editor.targetSite')}
            exclude={site}
            value={r.style.link_group_id ?? null}
            onChange={(v) =>
              editor.updateComponent(r.id, {
                style: { ...r.style, link_group_id: v ?? 0 },
                link: v ? `/map?device_group_id=${v}` : '',
              })
            }
          />
        </Form.Item>
      )}
      {r.kind === 'ElectricSafe' && (
        <Flex gap={8}>
          <Form.Item label={t('siteMap.editor.switchNo')} style={{ marginBottom: 8 }}>
            <InputNumber
              min={1}
              max={99}
              value={sw.no}
              onChange={(v) => v && editor.updateComponent(r.id, { propValue: { switch: v, poles: sw.poles } })}
            />
          </Form.Item>
          <Form.Item label={t('siteMap.editor.poles')} style={{ marginBottom: 8 }}>
            <Select
              value={sw.poles}
              options={[1, 2, 3, 4].map((p) => ({ value: p, label: `${p}P` }))}
              onChange={(p) =>
                editor.updateComponent(r.id, {
                  propValue: { switch: sw.no, poles: p },
                  width: p * poleWidth,
                  height: switchHeight,
                })
              }
            />
          </Form.Item>
        </Flex>
      )}
      {(r.kind === 'KaiGuan1' || r.kind === 'KaiGuan2' || r.kind === 'ElectricSafe') && (
        <Form.Item label={t('siteMap.editor.onOff')} style={{ marginBottom: 8 }}>
          <Switch checked={r.style.onOff ?? false} onChange={(v) => style({ onOff: v })} />
        </Form.Item>
      )}
      <Geometry editor={editor} r={r} />
      <Flex gap={8}>
        <Form.Item label={t('siteMap.editor.fontSize')} style={{ marginBottom: 8 }}>
          <InputNumber
            min={0}
            max={1000}
            value={r.style.fontSize}
            onChange={(v) => style({ fontSize: v ?? undefined })}
          />
        </Form.Item>
        <Form.Item label={t('siteMap.editor.borderWidth')} style={{ marginBottom: 8 }}>
          <InputNumber
            min={0}
            max={1000}
            value={r.style.borderWidth}
            onChange={(v) => style({ borderWidth: v ?? undefined })}
          />
        </Form.Item>
      </Flex>
      <Flex gap={8}>
        <Form.Item label={t('siteMap.editor.color')} style={{ marginBottom: 8 }}>
          <ColorPicker value={r.style.color} onChangeComplete={(c) => style({ color: c.toHexString() })} />
        </Form.Item>
        <Form.Item label={t('siteMap.editor.background')} style={{ marginBottom: 8 }}>
          <ColorPicker
            value={r.style.backgroundColor}
            allowClear
            onChangeComplete={(c) => style({ backgroundColor: c.toHexString() })}
          />
        </Form.Item>
        <Form.Item label={t('siteMap.editor.opacity')} style={{ marginBottom: 8 }}>
          <InputNumber
            min={0}
            max={1}
            step={0.1}
            value={r.style.opacity ?? 1}
            onChange={(v) => style({ opacity: v ?? undefined })}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('siteMap.editor.popup')} style={{ marginBottom: 8 }}>
        <Input.TextArea
          aria-label={t('siteMap.editor.popup')}
          defaultValue={r.dialog?.content ?? ''}
          maxLength={2000}
          onBlur={(e) =>
            editor.updateComponent(r.id, {
              dialog: e.target.value
                ? { placement: 'top', width: 240, trigger: 'hover', content: e.target.value }
                : null,
            })
          }
        />
      </Form.Item>
    </Form>
  );
};

const Animations = ({ editor, r }: { editor: Editor; r: ComponentRecord }) => {
  const { t } = useTranslation();
  const set = (animations: ComponentAnimation[]) => editor.updateComponent(r.id, { animations });
  return (
    <Flex vertical gap={8}>
      {(['enter', 'emphasis', 'exit'] as const).map((category) => (
        <Select<string>
          key={category}
          aria-label={t(`siteMap.editor.anim.${category}`)}
          placeholder={t(`siteMap.editor.anim.${category}`)}
          allowClear
          value={r.animations.find((a) => a.category === category)?.name}
          options={animationNames[category].map((name) => ({ value: name, label: t(`siteMap.editor.anim.${name}`) }))}
          onChange={(name) =>
            set([
              ...r.animations.filter((a) => a.category !== category),
              ...(name ? [{ category, name, duration: 1, loop: category === 'emphasis' }] : []),
            ])
          }
        />
      ))}
    </Flex>
  );
};

const Events = ({ editor, r }: { editor: Editor; r: ComponentRecord }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const set = (events: ComponentEvent[]) => editor.updateComponent(r.id, { events });
  const [form] = Form.useForm<{ kind: ComponentEvent['kind']; value: string }>();
  return (
    <Flex vertical gap={8}>
      {r.events.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: events are a short ordered list
        <Flex key={i} justify="space-between" align="center">
          <span>
            {t(`siteMap.editor.event.${e.kind}`)}: {e.value}
          </span>
          <Button size="small" danger onClick={() => set(r.events.filter((_, j) => j !== i))}>
            {t('common.delete')}
          </Button>
        </Flex>
      ))}
      <Form
        form={form}
        layout="vertical"
        size="small"
        initialValues={{ kind: 'redirect', value: '' }}
        onFinish={({ kind, value }) => {
          // 001 §5: a link-route event needs its target first.
          if (kind === 'redirect' && !value.trim()) return void message.warning(t('siteMap.editor.needTarget'));
          set([...r.events, { kind, value: value.trim() } as ComponentEvent]);
          form.resetFields();
        }}
      >
        <Form.Item name="kind" style={{ marginBottom: 8 }}>
          <Select
            options={(['redirect', 'alert', 'callback'] as const).map((k) => ({
              value: k,
              label: t(`siteMap.editor.event.${k}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="value" style={{ marginBottom: 8 }}>
          <Input aria-label={t('siteMap.editor.event.value')} placeholder={t('siteMap.editor.event.value')} />
        </Form.Item>
        <Button htmlType="submit">{t('common.add')}</Button>
      </Form>
    </Flex>
  );
};

const DeviceTab = ({ editor, r, site }: { editor: Editor; r: ComponentRecord; site: number }) => {
  const { t } = useTranslation();
  const devices = useQuery({
    queryKey: ['site-map', 'devices', site],
    queryFn: () => api.call(monitoringRoutes.listDevices, { query: { device_group_id: site, page: 1, limit: 1000 } }),
  });
  const items = useQuery({
    queryKey: ['site-map', 'station-items', r.device_id],
    queryFn: () => api.call(tv.stationItems, { query: { device_id: r.device_id! } }),
    enabled: !!r.device_id,
  });
  const deviceRows = devices.data?.data ?? [];
  return (
    <Form layout="vertical" size="small">
      <Form.Item label={t('siteMap.editor.device')} style={{ marginBottom: 8 }}>
        <Select
          aria-label={t('siteMap.editor.device')}
          allowClear
          showSearch
          optionFilterProp="label"
          value={r.device_id ?? undefined}
          options={deviceRows.map((d) => ({ value: d.id, label: d.name }))}
          onChange={(id?: number) => {
            const device = deviceRows.find((d) => d.id === id);
            // 001 §4: a new device clears the items and sets the link to its page.
            editor.updateComponent(r.id, {
              device_id: id ?? null,
              item_ids: [],
              link: deviceLink(r, id ?? null),
              label: r.label || device?.name || '',
              info: device ? { driver: device.driver, device: device.id, deviceName: device.name, items: [] } : null,
            });
          }}
        />
      </Form.Item>
      <Form.Item label={t('siteMap.editor.items')} style={{ marginBottom: 8 }}>
        <Select
          aria-label={t('siteMap.editor.items')}
          mode="multiple"
          disabled={!r.device_id}
          value={r.item_ids}
          options={(items.data ?? []).map((i) => ({ value: i.item_id, label: i.name }))}
          onChange={(ids: number[]) =>
            editor.updateComponent(r.id, {
              item_ids: ids,
              info: r.info
                ? {
                    ...r.info,
                    items: (items.data ?? [])
                      .filter((i) => ids.includes(i.item_id))
                      .map((i) => ({ itemId: i.item_id, name: i.name, alarm: false })),
                  }
                : null,
            })
          }
        />
      </Form.Item>
    </Form>
  );
};

/** The right panel (001 §2): attributes, animations, events and the device tab of the selection. */
export const RightPanel = ({ editor, site }: { editor: Editor; site: number }) => {
  const { t } = useTranslation();
  // The one selected record, as the store holds it: unchanged during a drag, so no re-render.
  const r = useEditorValue(editor, (e) => (e.selection.length === 1 ? e.get(e.selection[0]!) : undefined));
  if (!r) return <Empty description={t('siteMap.editor.selectOne')} />;
  return (
    <Tabs
      size="small"
      items={[
        {
          key: 'attr',
          label: t('siteMap.editor.tabs.attributes'),
          children: <Attributes editor={editor} r={r} site={site} />,
        },
        { key: 'anim', label: t('siteMap.editor.tabs.animations'), children: <Animations editor={editor} r={r} /> },
        { key: 'events', label: t('siteMap.editor.tabs.events'), children: <Events editor={editor} r={r} /> },
        ...(deviceKinds.has(r.kind) || r.kind === 'Items' || r.kind === 'ElectricSafe' || r.kind.startsWith('KaiGuan')
          ? [
              {
                key: 'device',
                label: t('siteMap.editor.tabs.device'),
                children: <DeviceTab editor={editor} r={r} site={site} />,
              },
            ]
          : []),
      ]}
    />
  );
};
