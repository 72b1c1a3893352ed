import { api } from '../api/client';

/** Saves a blob as a file: the browser's download, or the desktop's download handler. */
export const saveBlob = (blob: Blob, fileName: string): void => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

/** Downloads a file the API serves (with the session's token) and saves it under `fileName`. */
export const downloadFromApi = async (path: string, fileName: string, params?: Record<string, unknown>): Promise<void> => {
  const { data } = await api.get<Blob>(path, { params, responseType: 'blob' });
  saveBlob(data, fileName);
};
