import {
  type Compilable,
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';

// Builds SQL only; it never reaches a database.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const MARK = '\u0000param:';

/**
 * A statement of the hot path, built with the query builder once at start-up instead of on every
 * call (building and compiling was a twentieth of a loaded instance's CPU in issue 14's profile).
 * `build` names each value that varies with `param(name)`; the returned function runs the statement
 * with the values given by name, on the database or transaction passed in.
 */
export function compiledStatement<R, P extends string>(
  // biome-ignore lint/suspicious/noExplicitAny: a parameter stands in for a value of any column type
  build: (db: Kysely<Database>, param: (name: P) => any) => Compilable<R>,
): (db: Db, values: Record<P, unknown>) => Promise<R[]> {
  const compiled = build(compiler, (name) => `${MARK}${name}`).compile();
  // Each value is either a named parameter or a constant written into the statement by `build`.
  const slots = compiled.parameters.map((value): { name: P } | { constant: unknown } =>
    typeof value === 'string' && value.startsWith(MARK)
      ? { name: value.slice(MARK.length) as P }
      : { constant: value },
  );
  return async (db, values) =>
    (
      await db.executeQuery<R>(
        CompiledQuery.raw(
          compiled.sql,
          slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant)),
        ),
      )
    ).rows;
}
