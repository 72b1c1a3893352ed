import type { CreateFileListInput, FileListView, FileOptionView, UpdateFileListInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export type FileList = FileListView;
export type FileOption = FileOptionView;

/** Every key of this feature's lists; realtime `file` events and saves reload under it. */
export const FILES_KEY = ['files'] as const;

/** One file going to one option of a list. */
export interface OptionUpload {
  optionId: number;
  file: File;
}

export const filesApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<FileList>> => {
    const { data } = await api.get<{ files: FileList[]; hasMore: boolean }>('/files/', { params: { searchParam, pageNumber } });
    return { items: data.files, hasMore: data.hasMore };
  },
  get: async (id: number) => (await api.get<FileList>(`/files/${id}`)).data,
  create: async (input: CreateFileListInput) => (await api.post<FileList>('/files', input)).data,
  update: async (id: number, input: UpdateFileListInput) => (await api.put<FileList>(`/files/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/files/${id}`);
  },
  /**
   * POST /files/uploadList/{id} as the contract's client sends it (files, id, mediaType, fileId, typeArch);
   * `onProgress` gets the share sent so far, 0 to 1.
   */
  upload: async (listId: number, uploads: OptionUpload[], onProgress?: (sent: number) => void) => {
    const form = new FormData();
    form.append('fileId', String(listId));
    form.append('typeArch', 'fileList');
    for (const { optionId, file } of uploads) {
      form.append('files', file, file.name);
      form.append('id', String(optionId));
      form.append('mediaType', file.type);
    }
    const { data } = await api.post<FileList>(`/files/uploadList/${listId}`, form, {
      onUploadProgress: (e) => onProgress?.(e.total ? e.loaded / e.total : 0),
    });
    return data;
  },
};

/** Whether the server takes this file (FILE_LIST_MEDIA_TYPES: image/*, audio/*, video/*, exact types). */
export const acceptsFile = (file: { type: string }, accepted: readonly string[]): boolean =>
  accepted.some((type) => (type.endsWith('/*') ? file.type.startsWith(type.slice(0, -1)) : file.type === type));
