import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createLocalBackend } from './local-backend.js';
import { createS3Backend } from './s3-backend.js';
import { createMediaStore, type MediaStore } from './storage.js';

/** The media store the settings ask for; its URLs are signed with the server's JWT secret (shared by every process). */
export const mediaStoreFor = (config: Config, logger: Logger): MediaStore =>
  createMediaStore({
    secret: config.jwtSecret,
    backend: config.media.storage === 's3' ? createS3Backend(config.media.s3, { logger }) : createLocalBackend({ dir: config.media.dir }),
  });
