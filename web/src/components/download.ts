import { api } from '../api/client.ts';

/** Downloads a file from the API with the session's token (600 s timeout) and saves it. */
export const downloadFile = async (url: string, query: Record<string, unknown>, fileName: string) => {
  saveBlob((await api.send('GET', url, { query, download: true })) as Blob, fileName);
};

/** Saves a downloaded file under a name, as the browser's download would. */
export const saveBlob = (blob: Blob, fileName: string) => {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
};
