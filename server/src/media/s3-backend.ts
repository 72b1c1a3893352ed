import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3MediaConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { MediaBackend } from './storage.js';

/** S3 refuses parts under 5 MiB (but the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Media in an S3-compatible bucket under `{prefix}{companyId}/{fileName}`. Objects are written private
 * (no ACL; the bucket must not be public) and reach clients only through this server's signed media URLs.
 * A stream is uploaded one part at a time (multipart past one part), so memory holds at most one part; an
 * object exists only once complete.
 */
export const createS3Backend = (config: S3MediaConfig, options: { logger?: Logger; partBytes?: number } = {}): MediaBackend => {
  const partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? DEFAULT_PART_BYTES);
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    // Checksums only where S3 demands them: many S3-compatible services refuse the newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that stops answering fails the call (retried by the SDK, then by the caller) instead of hanging
    // it. The timeout runs until the answer starts, never while a file streams out to a client that reads
    // slowly (a paused video), and leaves an 8 MiB part two minutes to go up.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000, throwOnRequestTimeout: true },
  });
  const Bucket = config.bucket;
  const companyPrefix = (companyId: number) => `${config.prefix}${companyId}/`;
  const keyOf = (companyId: number, fileName: string) => `${companyPrefix(companyId)}${fileName}`;

  const uploadStream = async (Key: string, body: AsyncIterable<Buffer>, ContentType: string) => {
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const Body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))).UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body }));
      parts.push({ ETag, PartNumber });
    };
    try {
      // Awaiting each part holds the source back (the download waits for the bucket).
      for await (const chunk of body) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= partBytes) await flush();
      }
      if (!uploadId) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(pending), ContentType }));
        return;
      }
      if (pendingBytes > 0) await flush();
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      if (uploadId) {
        // Its parts are never an object; a bucket lifecycle rule clears what this could not.
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch((abortErr: unknown) => {
          options.logger?.warn({ code: (abortErr as Error).name }, 'media upload could not be aborted; its parts stay until the bucket expires them');
        });
      }
      throw err;
    }
  };

  return {
    kind: 's3',
    async write(companyId, fileName, body, mimetype) {
      const Key = keyOf(companyId, fileName);
      if (Buffer.isBuffer(body)) await client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentType: mimetype }));
      else await uploadStream(Key, body, mimetype);
    },
    async open(companyId, fileName) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(companyId, fileName) }));
        return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async exists(companyId, fileName) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(companyId, fileName) }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    async remove(companyId, fileName) {
      // S3 answers a delete of a missing key with success.
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(companyId, fileName) }));
    },
    async removeCompany(companyId) {
      const Prefix = companyPrefix(companyId);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) {
          const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          if (res.Errors?.length) throw new Error(`media objects not deleted: ${res.Errors[0].Code ?? 'unknown'} (${res.Errors.length})`);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async close() {
      client.destroy();
    },
  };
};
