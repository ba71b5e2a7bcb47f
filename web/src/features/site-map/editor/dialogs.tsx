import { DeleteOutlined } from '@ant-design/icons';
import { topViewUploads, topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Empty, Flex, Form, Input, Modal, Popconfirm, Switch, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../api/client.ts';
import { sitesQuery } from '../../../components/site-select.tsx';
import { rotationQuery, siteMapKeys } from '../api.ts';

export type LibraryKind = 'background' | 'icon';

const libraryQuery = (kind: LibraryKind) => ({
  queryKey: ['site-map', 'library', kind],
  queryFn: () => (kind === 'background' ? api.call(tv.backgroundImages) : api.call(tv.icons)),
});

/** Uploads one image to the library (multipart field `image`); answers its address. */
export const uploadImage = async (kind: LibraryKind, file: File): Promise<string> => {
  const form = new FormData();
  form.set('image', file);
  const path = kind === 'background' ? topViewUploads.backgroundPath : topViewUploads.iconPath;
  const answer = (await api.send('POST', path, { body: form })) as { url: string };
  return answer.url;
};

/** Texts of 001 §8 for uploads. */
const uploadTexts = {
  background: { ok: 'siteMap.editor.uploaded', fail: 'siteMap.editor.uploadFailed' },
  icon: { ok: 'siteMap.editor.iconUploaded', fail: 'siteMap.editor.iconUploadFailed' },
} as const;

/** Upload with the messages of 001 §8 (上传成功！ / 上传失败！, 上传图标成功！ / 上传图标失败！). */
export const useUpload = (kind: LibraryKind) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadImage(kind, file),
    onSuccess: () => {
      void message.success(t(uploadTexts[kind].ok));
      void client.invalidateQueries({ queryKey: ['site-map', 'library', kind] });
    },
    onError: (err) =>
      void message.error(err instanceof ApiError && err.message ? err.message : t(uploadTexts[kind].fail)),
  });
};

/**
 * Deletes an image of the library; the server refuses one a picture uses, or one the user does not
 * see, and says so (docs/site-map.md "Image library").
 */
const useDeleteImage = (kind: LibraryKind) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(tv.deleteImage, { params: { id } }),
    onSuccess: () => {
      void message.success(t('siteMap.editor.imageDeleted'));
      void client.invalidateQueries({ queryKey: ['site-map', 'library', kind] });
    },
    onError: (err) =>
      void message.error(err instanceof ApiError && err.message ? err.message : t('siteMap.editor.deleteFailed')),
  });
};

/**
 * Choose, upload or delete a background image or an icon (001 §2 dialogs), with the recommended
 * sizes of 001 §5 (background 1366 × 768; icons 88 × 88 under 200 KB; at most 1 MB). The library
 * holds the images of the pictures of the user's sites and their own unused uploads.
 */
export const LibraryDialog = ({
  kind,
  open,
  onClose,
  onPick,
}: {
  kind: LibraryKind;
  open: boolean;
  onClose: () => void;
  onPick: (url: string) => void;
}) => {
  const { t } = useTranslation();
  const images = useQuery({ ...libraryQuery(kind), enabled: open });
  const upload = useUpload(kind);
  const remove = useDeleteImage(kind);
  const input = useRef<HTMLInputElement>(null);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={720}
      title={t(kind === 'background' ? 'siteMap.editor.chooseBackground' : 'siteMap.editor.chooseIcon')}
    >
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">
          {t(kind === 'background' ? 'siteMap.editor.backgroundHint' : 'siteMap.editor.iconHint')}
        </Typography.Text>
        <Button type="primary" loading={upload.isPending} onClick={() => input.current?.click()}>
          {t('siteMap.editor.upload')}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".png,.jpg,.jpeg,.gif,.svg"
          data-testid={`upload-${kind}`}
          style={{ display: 'none' }}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file);
          }}
        />
      </Flex>
      {(images.data ?? []).length === 0 ? (
        <Empty />
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(100px, 1fr))', gap: 8 }}>
          {(images.data ?? []).map((img) => (
            <div key={img.id} style={{ position: 'relative' }}>
              <button
                type="button"
                data-testid="library-image"
                title={img.name}
                onClick={() => {
                  onPick(img.url);
                  onClose();
                }}
                style={{
                  width: '100%',
                  border: '1px solid #d9d9d9',
                  borderRadius: 4,
                  padding: 4,
                  background: '#0b1a2e',
                  cursor: 'pointer',
                }}
              >
                <img src={img.url} alt={img.name} style={{ width: '100%', height: 72, objectFit: 'contain' }} />
              </button>
              <Popconfirm title={t('siteMap.editor.deleteImageConfirm')} onConfirm={() => remove.mutate(img.id)}>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('siteMap.editor.deleteImage', { name: img.name })}
                  style={{ position: 'absolute', top: 4, right: 4 }}
                />
              </Popconfirm>
            </div>
          ))}
        </div>
      )}
    </Modal>
  );
};

/** The rotation (carousel) dialog of 001 §2 and §5: the server checks and answers the messages. */
export const RotationDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const rotation = useQuery({ ...rotationQuery, enabled: open });
  const sites = useQuery(sitesQuery);
  const [form] = Form.useForm<{ enable: boolean; interval: string; device_group_ids: number[] }>();
  useEffect(() => {
    if (open && rotation.data) form.setFieldsValue({ ...rotation.data, interval: String(rotation.data.interval) });
  }, [open, rotation.data, form]);
  const save = useMutation({
    mutationFn: (v: { enable: boolean; interval: string; device_group_ids: number[] }) =>
      api.call(tv.setRotation, { body: v }),
    onSuccess: (data) => {
      void message.success(t('siteMap.editor.rotationSaved'));
      client.setQueryData(siteMapKeys.rotation, data);
      onClose();
    },
    onError: (err) => void message.error(err.message),
  });
  // 001 §4: only sites that have devices can be rotated.
  const withDevices = (sites.data?.data ?? []).filter((s) => s.has_device);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('siteMap.editor.rotationTitle')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        initialValues={{ enable: false, interval: '10', device_group_ids: [] }}
      >
        <Form.Item name="enable" label={t('siteMap.editor.rotationEnable')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="interval" label={t('siteMap.editor.rotationInterval')}>
          <Input addonAfter={t('siteMap.editor.seconds')} aria-label={t('siteMap.editor.rotationInterval')} />
        </Form.Item>
        <Form.Item name="device_group_ids" label={t('siteMap.editor.rotationSites')}>
          <Checkbox.Group options={withDevices.map((s) => ({ value: s.id, label: s.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
