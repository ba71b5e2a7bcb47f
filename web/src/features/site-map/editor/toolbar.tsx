import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  ColumnHeightOutlined,
  ColumnWidthOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignMiddleOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import { Button, Flex, InputNumber, Space, Switch, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  arrangeCommands,
  type CommandId,
  commandById,
  runCommand,
  toolbarCommands,
} from '../../../editor/model/commands.ts';
import type { Editor } from '../../../editor/model/editor.ts';
import { parseScale } from '../../../editor/model/transforms.ts';
import { useEditorValue } from './use-editor.ts';

/** Icons of the arrange group (align 2+, distribute 3+): labels are the tooltips. */
const arrangeIcons: Partial<Record<CommandId, React.ReactNode>> = {
  alignLeft: <AlignLeftOutlined />,
  alignCentre: <AlignCenterOutlined />,
  alignRight: <AlignRightOutlined />,
  alignTop: <VerticalAlignTopOutlined />,
  alignMiddle: <VerticalAlignMiddleOutlined />,
  alignBottom: <VerticalAlignBottomOutlined />,
  distributeHorizontally: <ColumnWidthOutlined />,
  distributeVertically: <ColumnHeightOutlined />,
};

/** 001 §4: a scale typed in takes effect after 1 s without typing. */
const scaleDelayMs = 1000;

/**
 * The editor's toolbar (001 §2): the command table's toolbar rows (undo, redo, preview, save, clear,
 * group, ungroup, lock, unlock), canvas size, scale in percent, the background file input and the
 * heat-map toggle.
 */
export const Toolbar = ({
  editor,
  onBackgroundFile,
  heat,
  onHeat,
  extra,
}: {
  editor: Editor;
  onBackgroundFile: (file: File) => void;
  heat: boolean;
  onHeat: (on: boolean) => void;
  extra?: React.ReactNode;
}) => {
  const { t } = useTranslation();
  // Which commands are enabled, and the canvas: a pointer move changes neither, so no re-render.
  const enabled = useEditorValue(editor, (e) =>
    toolbarCommands.map((id) => (commandById(id).enabled(e) ? 1 : 0)).join(''),
  );
  const arrangeEnabled = useEditorValue(editor, (e) =>
    arrangeCommands.map((id) => (commandById(id).enabled(e) ? 1 : 0)).join(''),
  );
  const canvas = useEditorValue(editor, (e) => e.canvas);
  const file = useRef<HTMLInputElement>(null);
  const { width, height, scale } = canvas;
  const [scaleText, setScaleText] = useState<number | null>(scale);
  useEffect(() => setScaleText(scale), [scale]);
  useEffect(() => {
    if (scaleText === scale) return;
    const timer = setTimeout(() => {
      const next = parseScale(scaleText === null ? '' : String(scaleText));
      if (next !== null) editor.setScale(next);
    }, scaleDelayMs);
    return () => clearTimeout(timer);
  }, [scaleText, scale, editor]);

  return (
    <Flex wrap gap={8} align="center" data-testid="editor-toolbar">
      <Space.Compact>
        {toolbarCommands.map((id, i) => {
          const command = commandById(id);
          return (
            <Tooltip key={id} title={command.kbd[0]?.replace('mod', 'Ctrl').toUpperCase()}>
              <Button data-command={id} disabled={enabled[i] !== '1'} onClick={() => runCommand(editor, id)}>
                {t(command.labelKey)}
              </Button>
            </Tooltip>
          );
        })}
      </Space.Compact>
      <Space.Compact>
        {arrangeCommands.map((id, i) => (
          <Tooltip key={id} title={t(commandById(id).labelKey)}>
            <Button
              data-command={id}
              aria-label={t(commandById(id).labelKey)}
              icon={arrangeIcons[id]}
              disabled={arrangeEnabled[i] !== '1'}
              onClick={() => runCommand(editor, id)}
            />
          </Tooltip>
        ))}
      </Space.Compact>
      <Space size={4}>
        <InputNumber
          aria-label={t('siteMap.editor.canvasWidth')}
          min={100}
          max={20000}
          value={width}
          onChange={(v) => v && editor.setCanvasSize(v, height)}
          style={{ width: 90 }}
        />
        ×
        <InputNumber
          aria-label={t('siteMap.editor.canvasHeight')}
          min={100}
          max={20000}
          value={height}
          onChange={(v) => v && editor.setCanvasSize(width, v)}
          style={{ width: 90 }}
        />
      </Space>
      <InputNumber
        aria-label={t('siteMap.editor.scale')}
        min={1}
        max={1000}
        value={scaleText}
        onChange={(v) => setScaleText(v)}
        addonAfter="%"
        style={{ width: 120 }}
      />
      <Button onClick={() => file.current?.click()}>{t('siteMap.editor.backgroundFile')}</Button>
      <input
        ref={file}
        type="file"
        accept="image/*"
        data-testid="background-file"
        style={{ display: 'none' }}
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen) onBackgroundFile(chosen);
        }}
      />
      <Space size={4}>
        <Switch checked={heat} onChange={onHeat} aria-label={t('siteMap.heat.toggle')} />
        {t('siteMap.heat.toggle')}
      </Space>
      {extra}
    </Flex>
  );
};
