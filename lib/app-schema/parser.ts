import { loadModule, parseSync } from 'libpg-query';
import { processState } from '@/lib/core/process-state';

/**
 * PostgreSQL's own parser (libpg_query, compiled to WebAssembly): statements are split and read
 * exactly as the server reads them — comments, dollar quotes and string escapes included — so no
 * pattern matching over SQL text is needed anywhere.
 */
export interface ParsedStatement {
  /** Node type, e.g. CreateStmt. */
  type: string;
  node: Record<string, unknown>;
  /** The statement's own text (UTF-8 byte range of the input, leading comments included). */
  text: string;
  /** Byte offset of the statement in the input. */
  start: number;
}

export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    /** Byte offset of the error in the input, when the parser knows it. */
    readonly position?: number,
  ) {
    super(message);
  }
}

export const loadParser = () => processState('appSchema.parser', () => loadModule());

interface RawParse {
  stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[];
}

function rawParse(sql: string): RawParse {
  try {
    return parseSync(sql) as RawParse;
  } catch (error) {
    const details = (error as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    throw new SqlSyntaxError(details?.message ?? (error as Error).message, details?.cursorPosition);
  }
}

export async function parseStatements(sql: string): Promise<ParsedStatement[]> {
  await loadParser();
  const bytes = Buffer.from(sql, 'utf8');
  return (rawParse(sql).stmts ?? []).map((s) => {
    const start = s.stmt_location ?? 0;
    const end = s.stmt_len ? start + s.stmt_len : bytes.length;
    const [type] = Object.keys(s.stmt);
    return { type, node: s.stmt[type] as Record<string, unknown>, text: bytes.subarray(start, end).toString('utf8'), start };
  });
}

/** Parses one statement's text again: it must be exactly one statement, equal to what was read in context. */
export function reparsesAsItself(statement: ParsedStatement): boolean {
  const again = rawParse(statement.text).stmts ?? [];
  if (again.length !== 1) return false;
  const [type] = Object.keys(again[0].stmt);
  return type === statement.type && JSON.stringify(withoutLocations(again[0].stmt[type])) === JSON.stringify(withoutLocations(statement.node));
}

function withoutLocations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLocations);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'location' && k !== 'stmt_location' && k !== 'stmt_len')
        .map(([k, v]) => [k, withoutLocations(v)]),
    );
  }
  return value;
}

/** 1-based line of a byte offset of `sql`. */
export function lineAt(sql: string, byteOffset: number): number {
  const before = Buffer.from(sql, 'utf8').subarray(0, Math.max(0, byteOffset)).toString('utf8');
  return before.split('\n').length;
}
