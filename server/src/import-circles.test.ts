import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's source files import one another without a circle (entities, tests, migrations, test helpers
 * and benchmarks aside; type imports count). A circle means a layer reaches back up (a module's service
 * dragging in its routes, the message store importing tickets): the lint rules keep module boundaries, this
 * keeps the direction.
 */
const root = path.dirname(fileURLToPath(import.meta.url));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['migrations', 'testing', 'bench', 'node_modules'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.entity.ts') ? [full] : [];
  });

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const importGraph = (files: string[]): Map<string, string[]> => {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2]).replace(/\.js$/, '')))
      .map((base) => [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => existsSync(c)))
      .filter((target): target is string => !!target && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
};

/** Strongly connected components of more than one file (Tarjan), each a circle of imports. */
const circles = (graph: Map<string, string[]>): string[][] => {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.map((f) => path.relative(root, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
};

describe('import circles', () => {
  it('finds a circle when there is one (the check itself works)', () => {
    const graph = new Map([
      [path.join(root, 'a.ts'), [path.join(root, 'b.ts')]],
      [path.join(root, 'b.ts'), [path.join(root, 'c.ts')]],
      [path.join(root, 'c.ts'), [path.join(root, 'a.ts')]],
      [path.join(root, 'd.ts'), [path.join(root, 'a.ts')]],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('there is none among the server source files', () => {
    const files = sourceFiles(root);
    // The walk sees the real tree (a layer that moved away would make this pass vacuously).
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain(path.join(root, 'modules', 'tickets', 'index.ts'));
    expect(circles(importGraph(files))).toEqual([]);
  });
});
