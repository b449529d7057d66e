import { config } from '@/lib/core/config';

/** Structured logs: one JSON object per line on stdout/stderr. Never pass secrets or keys. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < ORDER[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

/**
 * Fields a driver attaches to its errors that name things (SQL state, constraint, table, column,
 * type, the server routine) and never carry values — unlike `message` and `detail`.
 */
const NAMING_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const;
const MAX_CAUSES = 4;
const MAX_FRAMES = 12;

/**
 * What a log line says about an error: for the error and each cause below it, its class and the
 * naming fields above, plus the stack frames of the outermost error. Never the message: messages
 * of drivers and the runtime embed the input (Drizzle's "Failed query: <sql> params: <values>",
 * `invalid input syntax for type uuid: "<value>"`, JSON.parse's excerpt, V8's "on string '<value>'"),
 * and logs must not carry request data. The request id on the line leads to the request.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: { type: typeof error } };
  const chain: Record<string, unknown>[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < MAX_CAUSES; e = e.cause) {
    const entry: Record<string, unknown> = { name: e.constructor?.name ?? e.name };
    for (const field of NAMING_FIELDS) {
      const value = (e as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string' || typeof value === 'number') entry[field] = value;
    }
    chain.push(entry);
  }
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => line.trim());
  return { error: chain[0], ...(chain.length > 1 ? { causes: chain.slice(1) } : {}), stack: frames };
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
