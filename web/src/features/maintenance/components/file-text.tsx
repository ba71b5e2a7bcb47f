import { Trans } from 'react-i18next';

type Key = 'backupPage.made' | 'backupPage.uploaded' | 'backupPage.restoreTitle' | 'backupPage.noticeText';

/** A text naming a package: the file name is data, shown as it is (the `<f>` of the text). */
export const FileText = ({ i18nKey, file, time }: { i18nKey: Key; file: string; time?: string }) => (
  <Trans i18nKey={i18nKey} values={{ file, time }} components={{ f: <span data-raw-ok /> }} />
);
