import { topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Layout, Result, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../../../api/client.ts';
import { readToken, tokenKey } from '../../../api/tokens.ts';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { handleKey } from '../../../editor/model/commands.ts';
import { Editor } from '../../../editor/model/editor.ts';
import { type ComponentKind, componentKinds, createComponent } from '../../../editor/model/records.ts';
import { pictureQuery, siteMapKeys } from '../api.ts';
import { EditorCanvas } from '../editor/canvas.tsx';
import { LibraryDialog, RotationDialog, uploadImage } from '../editor/dialogs.tsx';
import { RightPanel } from '../editor/panel.tsx';
import { Toolbar } from '../editor/toolbar.tsx';
import { TransferButtons } from '../editor/transfer-buttons.tsx';
import { useEditorValue, useRecords } from '../editor/use-editor.ts';
import { HeatLayer } from '../heat/heat-layer.tsx';
import { useSiteNames } from '../live-view.tsx';
import { pictureToSave, sceneFromPicture } from '../picture.ts';
import { SceneView } from '../render/scene-view.tsx';
import { siteTypes } from './map-page.tsx';

/** Kinds of the component list: Picture and Group are not placed from it (001 §2). */
const listKinds = componentKinds.filter((k) => k !== 'Picture' && k !== 'Group');

/**
 * Redeems the address's one-time ticket for the session token, kept in this window's session
 * storage (001 §2: the token is held for the session; a 401 or -2 then does not leave for login).
 * Without a ticket, a token already held is used.
 */
const useTicket = () => {
  const [search, setSearch] = useSearchParams();
  const ticket = search.get('token');
  const [state, setState] = useState<'pending' | 'ready' | 'failed'>(
    ticket ? 'pending' : readToken() ? 'ready' : 'failed',
  );
  const [error, setError] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per ticket
  useEffect(() => {
    if (!ticket) return;
    const next = new URLSearchParams(search);
    next.delete('token');
    api
      .call(tv.redeemTicket, { body: { ticket } })
      .then(({ access_token }) => {
        sessionStorage.setItem(tokenKey, access_token);
        setState('ready');
      })
      .catch((err: Error) => {
        setError(err.message);
        setState(readToken() ? 'ready' : 'failed');
      })
      // The ticket leaves the address at once: it is spent.
      .finally(() => setSearch(next, { replace: true }));
  }, [ticket]);
  return { state, error };
};

const Workspace = ({ site, type }: { site: number; type: number }) => {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const client = useQueryClient();
  const editor = useMemo(() => new Editor(), []);
  // Not the editor's version: the page must not re-render on every pointer move.
  const mode = useEditorValue(editor, (e) => e.mode);
  const oneSelected = useEditorValue(editor, (e) => e.selection.length === 1);
  // Records and canvas for the heat map and the preview: they change on a release, not during a drag.
  const records = useRecords(editor);
  useEditorValue(editor, (e) => e.canvas);
  const [parent, setParent] = useState(0);
  const [heat, setHeat] = useState(false);
  const [dialog, setDialog] = useState<'background' | 'icon' | 'abnormal' | 'rotation' | null>(null);
  const sites = useQuery(sitesQuery);
  const siteNames = useSiteNames();
  // Read once, and again only after a save or clear: a refetch would load over unsaved edits.
  const picture = useQuery({
    ...pictureQuery(site, type, parent),
    refetchInterval: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const subSites = (sites.data?.data ?? []).filter((s) => s.parent_id === site);

  // A fresh answer (first load, after a save or clear) replaces the scene and its history.
  useEffect(() => {
    if (!picture.data) return;
    const scene = sceneFromPicture(picture.data);
    editor.load(scene.records, scene.canvas);
  }, [picture.data, editor]);

  const reload = () => client.invalidateQueries({ queryKey: siteMapKeys.picture(site, type, parent) });
  const save = useMutation({
    mutationFn: () =>
      api.call(tv.save, { body: pictureToSave(editor.store.all(), editor.canvas, { site, type, parent }) }),
    onSuccess: () => {
      void message.success(t('siteMap.editor.saved'));
      void reload();
    },
    // 001 §8: the first failing message; a network failure says 网络波动，请稍后重试！
    onError: (err) =>
      void message.error(
        err instanceof ApiError && err.status !== 0 && err.message ? err.message : t('siteMap.editor.network'),
      ),
  });
  const clear = useMutation({
    mutationFn: () => api.call(tv.clear, { params: { id: site } }),
    onSuccess: () => {
      void message.success(t('siteMap.editor.cleared'));
      void reload();
    },
    onError: (err) => void message.error(err.message || t('siteMap.editor.clearFailed')),
  });

  useEffect(
    () =>
      editor.on((event) => {
        if (event.type === 'message') void message.warning(t(event.key));
        else if (event.type === 'save') save.mutate();
        else if (event.type === 'clear')
          modal.confirm({ content: t('siteMap.editor.clearConfirm'), onOk: () => clear.mutate() });
      }),
    [editor, message, modal, t, save.mutate, clear.mutate],
  );

  // Keys of the command table (001 §4), except while typing in a field or a dialog is open.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement;
      if (el.closest('input, textarea, select, [contenteditable="true"], .ant-modal, .ant-select')) return;
      if (handleKey(editor, { key: e.key, ctrl: e.ctrlKey, meta: e.metaKey, shift: e.shiftKey, alt: e.altKey }))
        e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);

  /** The background picture: replaced in place, or added beneath everything. */
  const setBackground = (url: string) => {
    const current = editor.store.all().find((r) => r.kind === 'Picture');
    if (current) editor.updateComponent(current.id, { normal_img: url });
    else {
      const { width, height } = editor.canvasRect;
      editor.addComponent('Picture', { normal_img: url, width, height });
    }
  };
  const onBackgroundFile = async (file: File) => {
    // 001 §5: the toolbar's background input takes only images.
    if (!file.type.startsWith('image/')) return void message.warning(t('siteMap.editor.onlyImages'));
    try {
      setBackground(await uploadImage('background', file));
      void message.success(t('siteMap.editor.uploaded'));
    } catch (err) {
      void message.error(err instanceof ApiError && err.message ? err.message : t('siteMap.editor.uploadFailed'));
    }
  };
  const addKind = (kind: ComponentKind, at?: { x: number; y: number }) => {
    // A new component lands centred where it is dropped, or on the centre of the canvas.
    const { width, height } = editor.canvasRect;
    const p = at ?? { x: width / 2, y: height / 2 };
    const size = createComponent('size', kind);
    editor.addComponent(kind, {
      left: Math.round(p.x - size.width / 2),
      top: Math.round(p.y - size.height / 2),
      device_group_id: site,
      parent_id: parent,
      ...(kind === 'VText' || kind === 'VButton' ? { propValue: t(`siteMap.kinds.${kind}`) } : {}),
    });
  };
  const onIcon = (url: string) => {
    const target = editor.selectedRecords()[0];
    if (dialog === 'abnormal' && target) editor.updateComponent(target.id, { abnormal_img: url });
    else if (target && target.kind !== 'Picture') editor.updateComponent(target.id, { normal_img: url });
    else {
      const id = editor.addComponent('Cdefault', { normal_img: url, device_group_id: site, parent_id: parent });
      const { width, height } = editor.canvasRect;
      editor.updateComponent(id, { left: width / 2 - 44, top: height / 2 - 44 });
    }
  };
  const siteName = siteNames.get(site) ?? '';
  // The heat map in the editor uses the values read with the picture (the editor takes no push).
  const liveNow = useMemo(() => (picture.data ? sceneFromPicture(picture.data).live : new Map()), [picture.data]);

  return (
    <Layout style={{ height: '100vh' }} data-testid="site-map-editor">
      <Layout.Header
        style={{
          background: '#fff',
          height: 'auto',
          lineHeight: 'normal',
          padding: 8,
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <Flex vertical gap={8}>
          <Toolbar
            editor={editor}
            onBackgroundFile={(f) => void onBackgroundFile(f)}
            heat={heat}
            onHeat={setHeat}
            extra={
              <>
                <Button onClick={() => setDialog('rotation')}>{t('siteMap.editor.rotationTitle')}</Button>
                <TransferButtons editor={editor} site={site} parent={parent} />
              </>
            }
          />
          <Flex gap={8} wrap align="center">
            <SiteSelect
              ariaLabel={t('siteMap.site')}
              value={site}
              onChange={(v) => v && navigate(`/groupmap_edit?id=${v}&type=${type}`)}
            />
            <Select
              aria-label={t('siteMap.subSite')}
              value={parent}
              style={{ minWidth: 140 }}
              onChange={setParent}
              options={[
                { value: 0, label: t('siteMap.home') },
                ...subSites.map((s) => ({ value: s.id, label: s.name })),
              ]}
            />
            <Select
              aria-label={t('siteMap.siteType')}
              value={type}
              style={{ minWidth: 140 }}
              onChange={(v) => navigate(`/groupmap_edit?id=${site}&type=${v}`)}
              options={siteTypes.map((v) => ({ value: v, label: t(`siteMap.siteTypes.${v}`) }))}
            />
            <Button onClick={() => setDialog('background')}>{t('siteMap.editor.chooseBackground')}</Button>
            {picture.isFetching && <Spin size="small" />}
          </Flex>
        </Flex>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={180} theme="light" style={{ overflow: 'auto', padding: 8 }}>
          <Typography.Text strong>{t('siteMap.editor.icons')}</Typography.Text>
          <Flex vertical gap={4} style={{ margin: '4px 0 12px' }}>
            <Button size="small" onClick={() => setDialog('icon')}>
              {t('siteMap.editor.chooseIcon')}
            </Button>
            <Button size="small" onClick={() => setDialog('abnormal')} disabled={!oneSelected}>
              {t('siteMap.editor.chooseAbnormal')}
            </Button>
          </Flex>
          <Typography.Text strong>{t('siteMap.editor.components')}</Typography.Text>
          <Flex vertical gap={2} style={{ marginTop: 4 }} data-testid="component-list">
            {listKinds.map((kind) => (
              <Button
                key={kind}
                size="small"
                data-add={kind}
                draggable
                onDragStart={(e) => e.dataTransfer.setData('application/x-sitewatch-kind', kind)}
                onClick={() => addKind(kind)}
                style={{ textAlign: 'left' }}
              >
                {t(`siteMap.kinds.${kind}`)}
              </Button>
            ))}
          </Flex>
        </Layout.Sider>
        <Layout.Content style={{ overflow: 'hidden', padding: 0, minWidth: 0 }}>
          <EditorCanvas
            editor={editor}
            siteName={siteName}
            siteNames={siteNames}
            onDropKind={addKind}
            overlay={heat && <HeatLayer records={records} live={liveNow} canvas={editor.canvasRect} />}
          />
        </Layout.Content>
        <Layout.Sider width={300} theme="light" style={{ overflow: 'auto', padding: 8 }} data-testid="editor-panel">
          <RightPanel editor={editor} site={site} />
        </Layout.Sider>
      </Layout>
      <LibraryDialog
        kind="background"
        open={dialog === 'background'}
        onClose={() => setDialog(null)}
        onPick={setBackground}
      />
      <LibraryDialog
        kind="icon"
        open={dialog === 'icon' || dialog === 'abnormal'}
        onClose={() => setDialog(null)}
        onPick={onIcon}
      />
      <RotationDialog open={dialog === 'rotation'} onClose={() => setDialog(null)} />
      {mode === 'preview' && (
        <div className="sm-preview" data-testid="editor-preview">
          <Space style={{ position: 'absolute', top: 8, right: 8, zIndex: 2 }}>
            <Button onClick={() => editor.closePreview()}>{t('siteMap.editor.closePreview')}</Button>
          </Space>
          <SceneView
            records={records}
            canvas={{ ...editor.canvasRect, scale: 100 }}
            siteName={siteName}
            siteNames={siteNames}
            interactive={false}
            animate
          />
        </div>
      )}
    </Layout>
  );
};

/**
 * /groupmap_edit?id=&token=&type= (001 §2, 000 §2.4–2.5): the site-map editor without the shell.
 * `token` is a one-time ticket the console mints for this window (never the session token).
 */
export const EditorPage = () => {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { state, error } = useTicket();
  const sites = useQuery({ ...sitesQuery, enabled: state === 'ready' });
  const site =
    Number(search.get('id')) || sites.data?.data.find((s) => s.has_device)?.id || sites.data?.data[0]?.id || 0;
  const type = Number(search.get('type')) || 0;
  if (state === 'pending') return <Spin fullscreen />;
  if (state === 'failed')
    return (
      <Result
        status="warning"
        title={error || t('siteMap.editor.noTicket')}
        extra={<Button href="/login">{t('siteMap.editor.toLogin')}</Button>}
      />
    );
  if (!site) return <Spin fullscreen />;
  return <Workspace key={`${site}-${type}`} site={site} type={type} />;
};
