import { topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { answer, requestsTo, resetApi } from '../../../test/fake-api.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { LibraryDialog } from './dialogs.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/client.ts')>();
  const { fakeCall: call } = await import('../../../test/fake-api.ts');
  return { ...real, api: { ...real.api, call } };
});

const image = (id: number, name: string) => ({
  id,
  url: `/api/v1/setting/top_view/file/${String(id).repeat(32).slice(0, 32)}.png`,
  name,
  content_type: 'image/png',
  size: 100,
});
const inUse = '图片“room.png”正被画面使用，不能删除：请先在使用它的画面中换掉或移除它';
let library = [image(1, 'old.png'), image(2, 'room.png')];

beforeEach(() => {
  resetApi();
  library = [image(1, 'old.png'), image(2, 'room.png')];
  answer(tv.backgroundImages, () => library);
  answer(tv.deleteImage, ({ params }) => {
    if (Number(params?.id) === 2) throw new ApiError(inUse, 400, 40000);
    library = library.filter((i) => i.id !== Number(params?.id));
    return null;
  });
});
afterEach(cleanup);

const deleteImage = async (name: string) => {
  fireEvent.click(await screen.findByRole('button', { name: `删除图片 ${name}` }));
  fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
};

it('deletes an unused image from the library after a confirmation, and shows the list without it', async () => {
  await renderPage(<LibraryDialog kind="background" open onClose={() => {}} onPick={() => {}} />, {
    page: '/groupmap_edit',
    functions: ['view', 'edit'],
  });
  expect(await screen.findAllByTestId('library-image')).toHaveLength(2);
  await deleteImage('old.png');
  await waitFor(() => expect(screen.getAllByTestId('library-image')).toHaveLength(1));
  expect(requestsTo(tv.deleteImage).map((r) => r.params)).toEqual([{ id: 1 }]);
  expect(await screen.findByText('图片已删除')).toBeTruthy();
});

it('shows the server’s refusal of an image a picture uses, and keeps it', async () => {
  await renderPage(<LibraryDialog kind="background" open onClose={() => {}} onPick={() => {}} />, {
    page: '/groupmap_edit',
    functions: ['view', 'edit'],
  });
  await deleteImage('room.png');
  expect(await screen.findByText(inUse)).toBeTruthy();
  expect(screen.getAllByTestId('library-image')).toHaveLength(2);
});
