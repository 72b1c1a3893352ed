/**
 * Writes the next migration: starts a throw-away embedded PostgreSQL, applies the checked-in migrations,
 * diffs the entities against it and registers the new file in migrations/index.ts.
 * Usage: npm run migration:create -w server
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbeddedPostgres } from '../db/embedded.js';
import { initOrm } from '../db/orm.js';
import { createLogger } from '../logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.resolve(here, '../db/migrations');
const logger = createLogger('info');
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-migration-'));
const db = await startEmbeddedPostgres({ dir, port: await freePort(), password: 'migration', database: 'atrium', logger, persistent: false });
try {
  const orm = await initOrm(db.url, logger);
  const result = await orm.getMigrator().createMigration(migrationsDir);
  await orm.close();
  if (!result.fileName) {
    logger.info('no schema changes');
  } else {
    const name = result.fileName.replace(/\.ts$/, '');
    const indexFile = path.join(migrationsDir, 'index.ts');
    const index = readFileSync(indexFile, 'utf8');
    const importLine = `import { ${name} } from './${name}.js';\n`;
    const updated = index.replace(/(import type .*?\n)/, `$1${importLine}`).replace(/\] = \[(.*?)\];/s, (_m, list: string) => {
      const items = list.trim() ? `${list.trim().replace(/,$/, '')},\n  { name: '${name}', class: ${name} },` : `\n  { name: '${name}', class: ${name} },`;
      return `] = [${items}\n];`;
    });
    writeFileSync(indexFile, updated);
    logger.info({ file: result.fileName }, 'migration written');
  }
} finally {
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}
