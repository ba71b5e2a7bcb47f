import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const notify = (name: keyof typeof import('./pages/notify-pages.tsx')) =>
  lazy(() => import('./pages/notify-pages.tsx').then((m) => ({ default: m[name] })));
const MailboxPage = notify('MailboxPage');
const AlarmPushPage = notify('AlarmPushPage');
const AlarmTemplatePage = notify('AlarmTemplatePage');
const ContactsPage = notify('ContactsPage');
const ContactGroupsPage = notify('ContactGroupsPage');

/** Notification settings: channels (mailbox, push), the message template, contacts and contact groups. */
export const notifyRoutes: RouteObject[] = [
  { path: '/setting_mailbox', element: <MailboxPage /> },
  { path: '/alarm_push', element: <AlarmPushPage /> },
  { path: '/setting_alarm_template', element: <AlarmTemplatePage /> },
  { path: '/setting_contacts', element: <ContactsPage /> },
  { path: '/setting_contact_groups', element: <ContactGroupsPage /> },
];
