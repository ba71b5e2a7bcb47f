import { api } from '../api/client.ts';

/** Downloads a file from the API with the session's token (600 s timeout) and saves it. */
export const downloadFile = async (url: string, query: Record<string, unknown>, fileName: string) => {
  const blob = (await api.send('GET', url, { query, download: true })) as Blob;
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
};
