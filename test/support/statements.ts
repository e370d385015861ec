// Statements counted: a database handle whose every statement (through Kysely) adds one to a count,
// for tests that assert what a request costs the database.
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import type { DbHandle } from '../../src/db/connect.ts';

export class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery<T>(args: { node: T }): T {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    return args.result;
  }
}

/** `handle` with a counter on its statements. */
export function countedHandle(handle: DbHandle): { handle: DbHandle; counter: QueryCounter } {
  const counter = new QueryCounter();
  return { handle: { ...handle, db: handle.db.withPlugin(counter) }, counter };
}
