import { describe, expect, it } from 'vitest';
import { replicaUnavailable } from '@/lib/db/replica';
import { envFor } from '@/tests/helpers/env';

/** DATABASE_READ_URL is checked when the configuration is read (at start): a replica of the Postgres in DATABASE_URL. */
const NAMES = ['DATABASE_URL', 'DATABASE_READ_URL', 'DATABASE_READ_POOL_MAX'];

const withEnv = envFor(NAMES);

describe('read replica configuration', () => {
  it('is off without DATABASE_READ_URL', () => {
    expect(withEnv({ DATABASE_URL: 'postgres://app@db.internal:5432/growth' })().DATABASE_READ_URL).toBeUndefined();
  });

  it('takes a Postgres replica of DATABASE_URL, with a pool of its own (5 connections unless set)', () => {
    const c = withEnv({
      DATABASE_URL: 'postgres://app@db.internal:5432/growth',
      DATABASE_READ_URL: 'postgresql://app@replica.internal:5432/growth',
    })();
    expect(c.DATABASE_READ_URL).toBe('postgresql://app@replica.internal:5432/growth');
    expect(c.DATABASE_READ_POOL_MAX).toBe(5);
  });

  it('is refused at start beside the embedded database (no DATABASE_URL), saying what to do', () => {
    expect(withEnv({ DATABASE_READ_URL: 'postgres://app@replica.internal:5432/growth' })).toThrow(
      /DATABASE_READ_URL \(a read replica for analytics\) needs DATABASE_URL.*embedded database \(PGlite\) has no replicas/,
    );
  });

  it('is refused unless it is a Postgres connection string', () => {
    expect(withEnv({ DATABASE_URL: 'postgres://app@db.internal:5432/growth', DATABASE_READ_URL: 'mysql://replica.internal/growth' })).toThrow(
      /DATABASE_READ_URL: must be a postgres:\/\/ or postgresql:\/\/ connection string/,
    );
  });
});

describe('a replica that cannot answer', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['server shutting down', withCode('57P01')],
    ['server starting', withCode('57P03')],
    ['too many connections', withCode('53300')],
    ['statement cancelled by a conflict with recovery', withCode('40001')],
    ['connection failure', withCode('08006')],
    ['authentication failed', withCode('28P01')],
    ['connect timeout of the pool', new Error('timeout exceeded when trying to connect')],
    ['connection lost under a query', new Error('Connection terminated unexpectedly')],
    ['wrapped by the query layer', new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') })],
  ])('%s: the read is answered by the primary', (_, error) => {
    expect(replicaUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('42601')],
    ['a bad value', withCode('22P02')],
    ['a write sent to the replica (a defect, not an outage)', withCode('25006')],
    ['an error of our own', new Error('Invalid query: query.from')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s: thrown as is', (_, error) => {
    expect(replicaUnavailable(error)).toBe(false);
  });
});
