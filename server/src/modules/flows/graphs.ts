import type { EntityManager } from '@mikro-orm/postgresql';
import { requireTenant } from '../../db/tenant.js';
import { compileFlow, type CompiledFlow } from './engine/runner.js';
import { FlowVersion } from './flow.entity.js';

/**
 * Compiled graphs by flow and version. A saved version is never changed (a save writes the next one), so
 * an entry can never be stale, in this process or any other: the cache only saves the read and the
 * indexing of a graph on every message. Bounded, oldest entries out first.
 */
const LIMIT = 500;

/** One per app (several apps share a test process, each with its own database). */
export class FlowGraphs {
  private readonly cache = new Map<string, CompiledFlow>();

  /** The graph of that version of the flow (`em` bound to the flow's company), or null when gone. */
  async get(em: EntityManager, flowId: number, version: number): Promise<CompiledFlow | null> {
    // The company in the key too: an entry is only ever found again through the same company.
    const key = `${requireTenant(em)}:${flowId}:${version}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = await em.findOne(FlowVersion, { flowId, version });
    if (!row) return null;
    const compiled = compileFlow(flowId, version, row.graph);
    this.cache.set(key, compiled);
    if (this.cache.size > LIMIT) this.cache.delete(this.cache.keys().next().value!);
    return compiled;
  }
}

