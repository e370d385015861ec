import type { ColumnType } from 'kysely';

/** Timestamp columns as the row types declare them: read, inserted and updated as a Date. */
export type Timestamp = ColumnType<Date, Date, Date>;
export type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
