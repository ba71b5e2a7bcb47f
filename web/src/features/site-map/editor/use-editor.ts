import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Editor } from '../../../editor/model/editor.ts';
import type { ComponentRecord } from '../../../editor/model/records.ts';

/** Re-renders on every change of the editor (toolbar, panel): cheap parts only, never the canvas. */
export const useEditorVersion = (editor: Editor) =>
  useSyncExternalStore(
    (cb) => editor.subscribe(cb),
    () => editor.version,
  );

/**
 * A value read from the editor; re-renders only when it changes (compared with Object.is), so a
 * pointer move, which changes the editor's version, does not redraw what does not depend on it.
 */
export const useEditorValue = <T>(editor: Editor, read: (editor: Editor) => T): T =>
  useSyncExternalStore(
    (cb) => editor.subscribe(cb),
    () => read(editor),
  );

/** The selection; re-renders only when it changes, not on every pointer move. */
export const useSelection = (editor: Editor) =>
  useSyncExternalStore(
    (cb) => editor.subscribe(cb),
    () => editor.selection,
  );

/** The records, re-read only when the store changes (a release, a command), never during a drag. */
export const useRecords = (editor: Editor): ComponentRecord[] => {
  const [records, setRecords] = useState(() => editor.store.all());
  useEffect(() => {
    setRecords(editor.store.all());
    return editor.store.listen(() => setRecords(editor.store.all()));
  }, [editor]);
  return records;
};
