import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121131450 } from './Migration20261121131450.js';
import { Migration20261121132952 } from './Migration20261121132952.js';
import { Migration20261121140340 } from './Migration20261121140340.js';
import { Migration20261121154058 } from './Migration20261121154058.js';
import { Migration20261124104800 } from './Migration20261124104800.js';
import { Migration20261124104844 } from './Migration20261124104844.js';
import { Migration20261124111554 } from './Migration20261124111554.js';
import { Migration20261124131518 } from './Migration20261124131518.js';
import { Migration20261124131712 } from './Migration20261124131712.js';
import { Migration20261124131747 } from './Migration20261124131747.js';
import { Migration20261124131804 } from './Migration20261124131804.js';
import { Migration20261124132226 } from './Migration20261124132226.js';
import { Migration20261124132329 } from './Migration20261124132329.js';
import { Migration20261124133223 } from './Migration20261124133223.js';
import { Migration20261126222300 } from './Migration20261126222300.js';
import { Migration20261126231104 } from './Migration20261126231104.js';
import { Migration20261126231612 } from './Migration20261126231612.js';
import { Migration20261126232323 } from './Migration20261126232323.js';
import { Migration20261126233757 } from './Migration20261126233757.js';
import { Migration20261127000918 } from './Migration20261127000918.js';
import { Migration20261127003636 } from './Migration20261127003636.js';

/** Checked-in migrations, in order. `npm run migration:create -w server` writes the next one. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121131450', class: Migration20261121131450 },
  { name: 'Migration20261121132952', class: Migration20261121132952 },
  { name: 'Migration20261121140340', class: Migration20261121140340 },
  { name: 'Migration20261121154058', class: Migration20261121154058 },
  { name: 'Migration20261124104800', class: Migration20261124104800 },
  { name: 'Migration20261124104844', class: Migration20261124104844 },
  { name: 'Migration20261124111554', class: Migration20261124111554 },
  { name: 'Migration20261124131518', class: Migration20261124131518 },
  { name: 'Migration20261124131712', class: Migration20261124131712 },
  { name: 'Migration20261124131747', class: Migration20261124131747 },
  { name: 'Migration20261124131804', class: Migration20261124131804 },
  { name: 'Migration20261124132226', class: Migration20261124132226 },
  { name: 'Migration20261124132329', class: Migration20261124132329 },
  { name: 'Migration20261124133223', class: Migration20261124133223 },
  { name: 'Migration20261126222300', class: Migration20261126222300 },
  { name: 'Migration20261126231104', class: Migration20261126231104 },
  { name: 'Migration20261126231612', class: Migration20261126231612 },
  { name: 'Migration20261126232323', class: Migration20261126232323 },
  { name: 'Migration20261126233757', class: Migration20261126233757 },
  { name: 'Migration20261127000918', class: Migration20261127000918 },
  { name: 'Migration20261127003636', class: Migration20261127003636 },
];
