import { describe, expect, it } from 'vitest';
import { answerOutcome, frame, PLAN_PER_CALL, splitMessages, statementCache, unnamedExchange } from '@/lib/db/statement-cache';

/** Protocol messages as the Postgres driver writes them (unnamed statement and portal, text parameters). */
const enc = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const t = (c: string) => c.charCodeAt(0);
const int16 = (n: number) => new Uint8Array([(n >> 8) & 255, n & 255]);
const int32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255]);

const parse = (text: string, name = '', types: number[] = []) =>
  frame(t('P'), cat(enc(`${name}\0${text}\0`), int16(types.length), ...types.map(int32)));
const bind = (values: string[], statement = '', portal = '') =>
  frame(
    t('B'),
    cat(enc(`${portal}\0${statement}\0`), int16(0), int16(values.length), ...values.flatMap((v) => [int32(enc(v).length), enc(v)]), int16(0)),
  );
const describePortal = (portal = '') => frame(t('D'), enc(`P${portal}\0`));
const execute = (portal = '') => frame(t('E'), cat(enc(`${portal}\0`), int32(0)));
const sync = () => frame(t('S'), new Uint8Array());
const exchange = (text: string, values: string[]) => cat(parse(text), bind(values), describePortal(), execute(), sync());

/** Backend answers. */
const msg = (c: string, body = new Uint8Array()) => frame(t(c), body);
const ready = (status: string) => msg('Z', enc(status));
const errorResponse = (code: string) => msg('E', cat(enc(`SERROR\0C${code}\0Mfailed\0`), new Uint8Array([0])));
const rowsAnswer = cat(msg('2'), msg('n'), msg('C', enc('SELECT 1\0')), ready('I'));

const types = (bytes: Uint8Array) => (splitMessages(bytes) ?? []).map((m) => String.fromCharCode(m.type)).join('');
const parseName = (bytes: Uint8Array) => {
  const m = splitMessages(bytes)!.find((x) => x.type === t('P'));
  return m && new TextDecoder().decode(bytes.subarray(m.start + 5, bytes.indexOf(0, m.start + 5)));
};
const bindStatement = (bytes: Uint8Array) => {
  const m = splitMessages(bytes)!.find((x) => x.type === t('B'))!;
  const portalEnd = bytes.indexOf(0, m.start + 5);
  return new TextDecoder().decode(bytes.subarray(portalEnd + 1, bytes.indexOf(0, portalEnd + 1)));
};

/** A backend that records what it was sent and answers from a script. */
function backend(answers: ((sent: Uint8Array) => Uint8Array)[]) {
  const sent: Uint8Array[] = [];
  return {
    sent,
    send: async (bytes: Uint8Array) => {
      sent.push(bytes);
      return (answers.shift() ?? (() => rowsAnswer))(bytes);
    },
  };
}

describe('statement cache: message rewriting', () => {
  it('recognises only the driver’s unnamed one-statement exchange', () => {
    expect(unnamedExchange(exchange('select $1', ['1']))?.key).toBe('select $1\0\0\0');
    expect(unnamedExchange(cat(parse('select 1'), bind([]), execute(), sync()))).toBeDefined();
    // client-named statement, named portal, two statements, no Sync, a simple query
    expect(unnamedExchange(cat(parse('select 1', 'mine'), bind([], 'mine'), describePortal(), execute(), sync()))).toBeUndefined();
    expect(unnamedExchange(cat(parse('select 1'), bind([], '', 'p1'), describePortal('p1'), execute('p1'), sync()))).toBeUndefined();
    expect(unnamedExchange(cat(exchange('select 1', []), exchange('select 2', [])))).toBeUndefined();
    expect(unnamedExchange(cat(parse('select 1'), bind([]), describePortal(), execute()))).toBeUndefined();
    expect(unnamedExchange(msg('Q', enc('select 1\0')))).toBeUndefined();
    // a truncated message
    expect(unnamedExchange(exchange('select 1', []).subarray(0, 12))).toBeUndefined();
  });

  it('keys a statement by its text and parameter types', () => {
    const a = unnamedExchange(cat(parse('select $1', '', [23]), bind(['1']), execute(), sync()))!.key;
    const b = unnamedExchange(cat(parse('select $1', '', [25]), bind(['1']), execute(), sync()))!.key;
    expect(a).not.toBe(b);
  });

  it('names the statement the first time, then binds that name without a Parse and answers its ParseComplete', async () => {
    const cache = statementCache();
    const db = backend([() => cat(msg('1'), rowsAnswer), () => rowsAnswer]);
    const first = await cache.exchange(exchange('select $1', ['1']), 'I', db.send);
    const name = parseName(db.sent[0])!;
    expect(name).toMatch(/^sgp_s[0-9a-f]{8}_0$/);
    expect(bindStatement(db.sent[0])).toBe(name);
    expect(types(first)).toBe('12nCZ');
    expect(cache.size).toBe(1);

    const second = await cache.exchange(exchange('select $1', ['2']), 'I', db.send);
    expect(types(db.sent[1])).toBe('BDES');
    expect(bindStatement(db.sent[1])).toBe(name);
    // the values, formats and the rest of the exchange are unchanged
    const original = splitMessages(exchange('select $1', ['2']))!;
    const rewritten = splitMessages(db.sent[1])!;
    const bindBody = (bytes: Uint8Array, m: { start: number; end: number }) =>
      bytes.subarray(bytes.indexOf(0, bytes.indexOf(0, m.start + 5) + 1) + 1, m.end);
    expect(bindBody(db.sent[1], rewritten[0])).toEqual(bindBody(exchange('select $1', ['2']), original[1]));
    expect(types(second)).toBe('12nCZ');
  });

  it('does not hold a statement whose Parse failed', async () => {
    const cache = statementCache();
    const db = backend([() => cat(errorResponse('42601'), ready('I'))]);
    await cache.exchange(exchange('selec 1', []), 'I', db.send);
    expect(cache.size).toBe(0);
    await cache.exchange(exchange('selec 1', []), 'I', db.send);
    expect(types(db.sent[1])).toBe('PBDES');
  });

  it('keeps an error inside the exchange where the driver expects it', async () => {
    const cache = statementCache();
    const db = backend([() => cat(msg('1'), rowsAnswer), () => cat(msg('2'), msg('n'), errorResponse('22P02'), ready('I'))]);
    await cache.exchange(exchange('select $1::int', ['1']), 'I', db.send);
    const answer = await cache.exchange(exchange('select $1::int', ['x']), 'I', db.send);
    expect(types(answer)).toBe('12nEZ');
    expect(answerOutcome(answer)).toEqual({ parsed: true, bound: true, error: '22P02' });
    expect(cache.size).toBe(1);
  });

  it('never holds a statement marked to be planned per call: it goes unnamed, as it came, every time', async () => {
    const cache = statementCache();
    const parsed = () => cat(msg('1'), rowsAnswer);
    const db = backend([parsed, parsed, parsed]);
    const text = `${PLAN_PER_CALL}select * from leads where search_text like $1 limit $2`;
    for (const value of ['%a%', '%b%']) {
      const sent = exchange(text, [value, '21']);
      expect(types(await cache.exchange(sent, 'I', db.send))).toBe('12nCZ');
      expect(db.sent.at(-1)).toBe(sent);
    }
    expect(cache.size).toBe(0);
    // the same text without the mark is held
    await cache.exchange(exchange(text.slice(PLAN_PER_CALL.length), ['%a%', '21']), 'I', db.send);
    expect(cache.size).toBe(1);
  });

  it('passes every exchange through unchanged in a failed transaction, and when full', async () => {
    const cache = statementCache(1);
    const db = backend([() => cat(msg('1'), rowsAnswer)]);
    await cache.exchange(exchange('select 1', []), 'I', db.send);
    const inFailed = exchange('select 1', []);
    await cache.exchange(inFailed, 'E', db.send);
    expect(db.sent[1]).toBe(inFailed);
    const other = exchange('select 2', []);
    await cache.exchange(other, 'I', db.send);
    expect(db.sent[2]).toBe(other);
    expect(cache.size).toBe(1);
  });

  it('forgets a statement the backend no longer has and sends the exchange again as it came', async () => {
    const cache = statementCache();
    const db = backend([
      () => cat(msg('1'), rowsAnswer),
      () => cat(errorResponse('26000'), ready('I')),
      () => cat(msg('3'), ready('I')),
      () => cat(msg('1'), rowsAnswer),
    ]);
    await cache.exchange(exchange('select 1', []), 'I', db.send);
    const answer = await cache.exchange(exchange('select 1', []), 'I', db.send);
    expect(types(db.sent[2])).toBe('CS'); // Close of the held name
    expect(types(db.sent[3])).toBe('PBDES');
    expect(parseName(db.sent[3])).toBe('');
    expect(types(answer)).toBe('12nCZ');
    expect(cache.size).toBe(0);
  });

  it('in a transaction, a stale statement’s error reaches the client after its ParseComplete', async () => {
    const cache = statementCache();
    const db = backend([() => cat(msg('1'), rowsAnswer), () => cat(errorResponse('0A000'), ready('E')), () => cat(msg('3'), ready('E'))]);
    await cache.exchange(exchange('select * from t', []), 'I', db.send);
    const answer = await cache.exchange(exchange('select * from t', []), 'T', db.send);
    expect(types(answer)).toBe('1EZ');
    expect(db.sent).toHaveLength(3);
    expect(cache.size).toBe(0);
  });
});
