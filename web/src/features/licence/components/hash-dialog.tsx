import { use } from 'react';
import { allTextsLoaded, loadAllTexts } from '../../../i18n/index.ts';
import { useProductDialog } from './licence-reminder.tsx';

/** The product dialog on the login page, opened by `#type=active` (000 §2.1); its texts load first. */
export const HashProductDialog = () => {
  if (!allTextsLoaded()) use(loadAllTexts());
  return useProductDialog().dialog;
};
