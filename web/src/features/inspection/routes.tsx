import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const InspectionPage = lazy(() => import('./pages/inspection-page.tsx').then((m) => ({ default: m.InspectionPage })));
const RecordPage = lazy(() => import('./pages/record-page.tsx').then((m) => ({ default: m.RecordPage })));
const DetailPage = lazy(() => import('./pages/detail-page.tsx').then((m) => ({ default: m.DetailPage })));

/** Inspection (menu 721; /polling_record and /polling_main_detail are always allowed pages; docs/inspection-duty.md). */
export const inspectionRoutes: RouteObject[] = [
  { path: '/polling_main', element: <InspectionPage /> },
  { path: '/polling_record', element: <RecordPage /> },
  { path: '/polling_main_detail', element: <DetailPage /> },
];
