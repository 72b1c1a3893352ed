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

  it('a server module may not reach into another module’s routes', async () => {
    expect(await restricted('server/src/modules/tags/tags.service.ts', "import { x } from '../tickets/tickets.routes.js';\nexport { x };\n")).toHaveLength(1);
  });

  it('shared/ imports only zod and itself', async () => {
    expect(await restricted('shared/src/constants.ts', "import x from 'pg';\nexport { x };\n")).toHaveLength(1);
    expect(await restricted('shared/src/constants.ts', "import { z } from 'zod';\nexport { z };\n")).toEqual([]);
  });
});
