import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layer rules of eslint.config.js fail on the imports they forbid (and pass the ones they allow). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

const restricted = async (filePath: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('lint rules', () => {
  it('a renderer feature may not import another feature, at any depth', async () => {
    expect(await restricted('desktop/src/renderer/features/tags/components/tags-page.tsx', "import { x } from '../../tickets/api/tickets';\nexport { x };\n")).toEqual([
      expect.stringContaining('does not import another feature'),
    ]);
    expect(await restricted('desktop/src/renderer/features/tags/index.ts', "import { x } from '../kanban/board';\nexport { x };\n")).toHaveLength(1);
    // Its own parts and the shared ones are fine.
    expect(await restricted('desktop/src/renderer/features/tags/components/tags-page.tsx', "import { x } from '../api/tags';\nimport { y } from '../../../api/query';\nexport { x, y };\n")).toEqual([]);
  });

  it('the renderer may not import Node built-ins or the main process', async () => {
    expect(await restricted('desktop/src/renderer/app/router.tsx', "import fs from 'node:fs';\nexport { fs };\n")).toHaveLength(1);
    expect(await restricted('desktop/src/renderer/app/router.tsx', "import { x } from '../../main/window';\nexport { x };\n")).toHaveLength(1);
  });

  it('a server module uses another module only through its public entry (entities aside)', async () => {
    const tagsService = 'server/src/modules/tags/tags.service.ts';
    expect(await restricted(tagsService, "import { x } from '../tickets/tickets.routes.js';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted(tagsService, "import { x } from '../tickets/transitions.js';\nexport { x };\n")).toEqual([
      expect.stringContaining('through its index.js'),
    ]);
    expect(await restricted(tagsService, "import { x } from '../tickets/index.js';\nimport { T } from '../tickets/ticket.entity.js';\nexport { x, T };\n")).toEqual([]);
    // Its own files, and the server's shared layers, are fine.
    expect(await restricted(tagsService, "import { x } from './tag.entity.js';\nimport { y } from '../../db/sql.js';\nexport { x, y };\n")).toEqual([]);
    // The rest of the server (the pipeline, realtime...) goes through the entry too; tests may reach inside.
    expect(await restricted('server/src/pipeline/inbound.ts', "import { x } from '../modules/tickets/transitions.js';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted('server/src/pipeline/inbound.ts', "import { x } from '../modules/tickets/index.js';\nexport { x };\n")).toEqual([]);
    expect(await restricted('server/src/pipeline/inbound.test.ts', "import { x } from '../modules/tickets/transitions.js';\nexport { x };\n")).toEqual([]);
  });

  it('the rule has no holes: the app root, module subfolders, the module list and the manifests', async () => {
    // app.ts imports with './modules/...'.
    expect(await restricted('server/src/app.ts', "import { x } from './modules/outbox/outbox.sender.js';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted('server/src/app.ts', "import { x } from './modules/outbox/index.js';\nimport { m } from './modules/index.js';\nexport { x, m };\n")).toEqual([]);
    // A file in a module's subfolder reaches another module with '../../'.
    const provider = 'server/src/modules/billing/providers/efi.ts';
    expect(await restricted(provider, "import { x } from '../../tickets/transitions.js';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted(provider, "import { x } from '../../tickets/index.js';\nimport { y } from '../billing.service.js';\nimport { z } from '../../../db/sql.js';\nexport { x, y, z };\n")).toEqual([]);
    // Files right under modules/ (the list, the contract) are covered too; the list may name manifests.
    expect(await restricted('server/src/modules/app-module.ts', "import { x } from './outbox/outbox.sender.js';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted('server/src/modules/index.ts', "import { m } from './outbox/module.js';\nexport { m };\n")).toEqual([]);
    // Another module's manifest (its routes, jobs) is not its public entry.
    expect(await restricted('server/src/modules/tags/tags.service.ts', "import { m } from '../tickets/module.js';\nexport { m };\n")).toHaveLength(1);
  });

  it('shared/ imports only zod and itself', async () => {
    expect(await restricted('shared/src/constants.ts', "import x from 'pg';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted('shared/src/constants.ts', "import { z } from 'zod';\nexport { z };\n")).toEqual([]);
  });
});
