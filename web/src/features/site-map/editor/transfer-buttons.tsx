import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { App, Button } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import type { Editor } from '../../../editor/model/editor.ts';
import { buildTransfer, imagesOf, recordsFromTransfer, transferFile } from '../transfer.ts';
import { uploadImage } from './dialogs.tsx';

const readAsDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

/** A data URL back into a file to upload (decoded here: the page's CSP lets fetch reach only its own server). */
const fileOf = (data: string, name: string) => {
  const [head = '', body = ''] = data.split(',');
  const type = head.slice('data:'.length, head.indexOf(';'));
  const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  return new File([bytes], `${name}.${extensionOf[type] ?? 'png'}`, { type });
};

/**
 * Export the canvas as one JSON file with its images, and import such a file into this site's
 * canvas (docs/site-map.md "Export and import"). An import replaces the canvas; nothing is stored
 * until the picture is saved.
 */
export const TransferButtons = ({ editor, site, parent }: { editor: Editor; site: number; parent: number }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const exportFile = async () => {
    setBusy(true);
    try {
      const records = editor.store.all();
      const images = new Map<string, { kind: 'background' | 'icon'; data: string }>();
      for (const [url, kind] of imagesOf(records)) {
        const response = await fetch(url);
        if (response.ok) images.set(url, { kind, data: await readAsDataUrl(await response.blob()) });
      }
      const blob = new Blob([JSON.stringify(buildTransfer(records, editor.canvas, images))], {
        type: 'application/json',
      });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `site-map-${site}-${parent}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
    } finally {
      setBusy(false);
    }
  };

  const importFile = async (file: File) => {
    setBusy(true);
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        parsed = null;
      }
      const checked = transferFile.safeParse(parsed);
      if (!checked.success) return void message.error(t('siteMap.editor.importInvalid'));
      const urls = new Map<string, string>();
      let n = 0;
      for (const [url, image] of Object.entries(checked.data.images))
        urls.set(url, await uploadImage(image.kind, fileOf(image.data, `import-${++n}`)));
      const devices = await api.call(monitoringRoutes.listDevices, {
        query: { device_group_id: site, page: 1, limit: 1000 },
      });
      const records = recordsFromTransfer(checked.data, urls, {
        site,
        parent,
        devices: new Set(devices.data.map((d) => d.id)),
      });
      editor.load(records, checked.data.canvas);
      void message.success(t('siteMap.editor.imported'));
    } catch (err) {
      void message.error(err instanceof Error && err.message ? err.message : t('siteMap.editor.importInvalid'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button loading={busy} onClick={() => void exportFile()} data-testid="export-picture">
        {t('siteMap.editor.export')}
      </Button>
      <Button loading={busy} onClick={() => input.current?.click()}>
        {t('siteMap.editor.import')}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        data-testid="import-picture"
        style={{ display: 'none' }}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void importFile(f);
        }}
      />
    </>
  );
};
