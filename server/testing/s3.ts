import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The settings that point a server at this bucket (MEDIA_STORAGE=s3 and MEDIA_S3_*). */
  env: Record<string, string>;
  /** Every key in the bucket (under `prefix`). */
  keys(prefix?: string): Promise<string[]>;
  /** The service goes away (connections refused) and comes back on the same port with the same objects. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A local S3-protocol server (s3rver: the S3 REST API over HTTP on loopback, objects in a temporary
 * directory) with one empty bucket. It accepts any credentials; the server is given some all the same.
 */
export const startS3Server = async (bucket = 'atrium-media'): Promise<S3Server> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-s3-'));
  const serve = async (port: number) => {
    const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
    return { server, port: (await server.run()).port };
  };
  let { server, port } = await serve(0);
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: 's3',
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_REGION: 'us-east-1',
      MEDIA_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
    },
    async keys(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
    async down() {
      running = false;
      await server.close();
    },
    async up() {
      ({ server, port } = await serve(port));
      running = true;
    },
    async stop() {
      client.destroy();
      if (running) await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
