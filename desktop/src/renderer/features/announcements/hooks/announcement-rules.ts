import { ANNOUNCEMENT_MEDIA_EXTENSIONS, ANNOUNCEMENT_MEDIA_MAX_BYTES } from '@atrium/shared';

const PRIORITY_KEYS = { 1: 'high', 2: 'medium', 3: 'low' } as const;

/** The word for a priority: 1 high, 2 medium, 3 low (spec 02 section 3). */
export const priorityKey = (priority: number): 'high' | 'medium' | 'low' => PRIORITY_KEYS[priority as 1 | 2 | 3] ?? 'low';

/** png, jpg or jpeg, within the size limit (spec 02 section 5); the server checks again. */
export const isAcceptedImage = (file: { name: string; size: number }): boolean =>
  ANNOUNCEMENT_MEDIA_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext)) && file.size <= ANNOUNCEMENT_MEDIA_MAX_BYTES;

export const MEDIA_MAX_MB = ANNOUNCEMENT_MEDIA_MAX_BYTES / (1024 * 1024);
