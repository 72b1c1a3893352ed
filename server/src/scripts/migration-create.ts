/**
 * Writes the next migration: starts a throw-away embedded PostgreSQL, applies the checked-in migrations,
 * diffs the entities against it and registers the new file in migrations/index.ts.
 * Usage: npm run migration:create -w server
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbeddedPostgres } from '../db/embedded.js';
import { initOrm } from '../db/orm.js';
import { createLogger } from '../logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.resolve(here, '../db/migrations');
const logger = createLogger('info');

/** migrations/index.ts, listing every migration file in name (= time) order. */
const migrationIndex = (files: string[]): string => {
  const names = files.filter((f) => /^Migration\d+\.ts$/.test(f)).map((f) => f.replace(/\.ts$/, '')).sort();
  return [
    "import type { MigrationObject } from '@mikro-orm/core';",
    ...names.map((n) => `import { ${n} } from './${n}.js';`),
    '',
    '/** Checked-in migrations, in order. `npm run migration:create -w server` writes the next one. */',
    'export const migrationsList: MigrationObject[] = [',
    ...names.map((n) => `  { name: '${n}', class: ${n} },`),
    '];',
    '',
  ].join('\n');
};
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-migration-'));
chmodSync(dir, 0o755);
const db = await startEmbeddedPostgres({ dir, port: await freePort(), password: 'migration', database: 'atrium', logger, persistent: false });
try {
  const orm = await initOrm(db.url, logger);
  const result = await orm.getMigrator().createMigration(migrationsDir);
  await orm.close();
  if (!result.fileName) {
    logger.info('no schema changes');
  } else {
    writeFileSync(path.join(migrationsDir, 'index.ts'), migrationIndex(readdirSync(migrationsDir)));
    logger.info({ file: result.fileName }, 'migration written');
  }
} finally {
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}
