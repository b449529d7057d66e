import { randomBytes } from 'node:crypto';

/**
 * Statements the embedded database's one backend session keeps parsed, for every connection of the
 * socket server (lib/db/embedded-server.ts). The Postgres driver sends each parameterized query as
 * an unnamed exchange — Parse "" / Bind / Describe portal / Execute / Sync — so the backend would
 * parse and analyze the same few texts again on every call. Here the first such exchange of a text
 * parses it under a name of ours; every later one drops the Parse, binds that name, and answers the
 * ParseComplete the driver waits for itself. Nothing else changes: any other shape of exchange
 * (client-named statements, several statements, simple queries, a failed transaction) goes to the
 * backend as it came.
 *
 * At most `max` texts are held; past that, new texts go unnamed (a fixed set of texts, as the app's
 * repositories send, fits). A held statement the backend no longer has (`DEALLOCATE`, `DISCARD`) or
 * can no longer use as it is (`cached plan must not change result type` after a table changed) is
 * forgotten and closed, and the exchange is sent again as it came when no transaction was open.
 * Plans follow Postgres' `plan_cache_mode = auto`: a held statement is planned per call for its
 * first five calls, then keeps one generic plan when that is estimated to cost no more.
 *
 * A statement whose best plan depends on its values (a search whose selectivity only the term
 * tells, a page size the planner must know to pick an index walk) starts with PLAN_PER_CALL: it is
 * never held, so, unnamed, it is planned with its values on every call — as Postgres plans every
 * statement the driver sends. A generic plan of the leads page, planned for an unknown term and
 * page size, read every lead of the site for a page of 20. A statement whose plan cannot depend on
 * its values is better held: the event batch reads its sessions by primary key alone
 * (lib/visitors/events-repo.ts), and its planning was half of what a batch cost the backend.
 */

/** The leading comment of a statement to plan with its values on every call, never with a generic plan. */
export const PLAN_PER_CALL = '/* plan per call */ ';

/** Message type bytes of the Postgres protocol. */
const PARSE = 0x50;
const BIND = 0x42;
const DESCRIBE = 0x44;
const EXECUTE = 0x45;
const SYNC = 0x53;
const CLOSE = 0x43;
const ERROR_RESPONSE = 0x45;
const PARSE_COMPLETE_TYPE = 0x31;
const BIND_COMPLETE_TYPE = 0x32;
const PARSE_COMPLETE = new Uint8Array([PARSE_COMPLETE_TYPE, 0, 0, 0, 4]);

/** SQLSTATEs after which a held statement is forgotten: it no longer exists, or its result type changed. */
const STALE = new Set(['26000', '0A000']);

interface Message {
  type: number;
  start: number;
  end: number;
}

/** The complete messages of `bytes` (type, and the message's byte range), or undefined if they do not tile it exactly. */
export function splitMessages(bytes: Uint8Array): Message[] | undefined {
  const out: Message[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  while (i < bytes.length) {
    if (i + 5 > bytes.length) return undefined;
    const end = i + 1 + view.getInt32(i + 1);
    if (end > bytes.length || end < i + 5) return undefined;
    out.push({ type: bytes[i], start: i, end });
    i = end;
  }
  return out;
}

/** The end (exclusive, past its NUL) of the C string at `at`, or -1. */
const cstringEnd = (bytes: Uint8Array, at: number, end: number) => {
  const nul = bytes.indexOf(0, at);
  return nul < 0 || nul >= end ? -1 : nul + 1;
};

/** One message with `type` and `body`. */
export function frame(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type;
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

const utf8 = new TextEncoder();
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * The driver's exchange of one unnamed statement: Parse "" first, then Bind "" of statement "",
 * an optional Describe of portal "", Execute of portal "", Sync last, and nothing else. Returns the
 * Parse's text and parameter types (the key of the statement) and the messages after it.
 */
export function unnamedExchange(bytes: Uint8Array): { key: string; rest: Message[]; parse: Message } | undefined {
  const messages = splitMessages(bytes);
  if (!messages || messages.length < 4 || messages.length > 5) return undefined;
  const [parse, bind, ...tail] = messages;
  const shape = tail.map((m) => m.type).join(',');
  if (parse.type !== PARSE || bind.type !== BIND) return undefined;
  if (shape !== `${EXECUTE},${SYNC}` && shape !== `${DESCRIBE},${EXECUTE},${SYNC}`) return undefined;
  // Parse: name "" NUL, text NUL, parameter types
  if (bytes[parse.start + 5] !== 0) return undefined;
  // Bind: portal "" NUL, statement "" NUL
  if (bytes[bind.start + 5] !== 0 || bytes[bind.start + 6] !== 0) return undefined;
  // Describe portal "" ; Execute portal ""
  for (const m of tail) {
    if (m.type === DESCRIBE && (bytes[m.start + 5] !== 0x50 || bytes[m.start + 6] !== 0)) return undefined;
    if (m.type === EXECUTE && bytes[m.start + 5] !== 0) return undefined;
  }
  const key = Buffer.from(bytes.buffer, bytes.byteOffset + parse.start + 6, parse.end - parse.start - 6).toString('latin1');
  return { key, rest: [bind, ...tail], parse };
}

/** The exchange's messages with the Bind naming statement `name` (instead of the unnamed one), without its Parse. */
export function bindNamed(bytes: Uint8Array, rest: Message[], name: string): Uint8Array {
  const [bind, ...tail] = rest;
  // Bind body: portal "" NUL, statement "" NUL, then formats and values, unchanged.
  const boundBody = concat([new Uint8Array([0]), utf8.encode(name), new Uint8Array([0]), bytes.subarray(bind.start + 7, bind.end)]);
  return concat([frame(BIND, boundBody), ...tail.map((m) => bytes.subarray(m.start, m.end))]);
}

/** The exchange with its Parse naming the statement `name`, and its Bind binding it. */
export function parseNamed(bytes: Uint8Array, parse: Message, rest: Message[], name: string): Uint8Array {
  const body = concat([utf8.encode(name), bytes.subarray(parse.start + 5, parse.end)]);
  return concat([frame(PARSE, body), bindNamed(bytes, rest, name)]);
}

/** The SQLSTATE of the first ErrorResponse in a backend answer, and whether a ParseComplete or a BindComplete came before it. */
export function answerOutcome(answer: Uint8Array): { parsed: boolean; bound: boolean; error?: string } {
  let parsed = false;
  let bound = false;
  const messages = splitMessages(answer) ?? [];
  for (const m of messages) {
    if (m.type === PARSE_COMPLETE_TYPE) parsed = true;
    if (m.type === BIND_COMPLETE_TYPE) bound = true;
    if (m.type === ERROR_RESPONSE) {
      // fields: a type byte, a C string, …, a final NUL; `C` is the SQLSTATE
      let at = m.start + 5;
      while (at < m.end && answer[at] !== 0) {
        const end = cstringEnd(answer, at + 1, m.end);
        if (end < 0) break;
        if (answer[at] === 0x43) return { parsed, bound, error: Buffer.from(answer.subarray(at + 1, end - 1)).toString('latin1') };
        at = end;
      }
      return { parsed, bound, error: '' };
    }
  }
  return { parsed, bound };
}

export interface StatementCache {
  /**
   * Sends one batch of a connection's messages to the backend through `send`, using a held statement
   * when it can, and returns the answer the client expects. `status` is the backend's transaction
   * status before it (`I`, `T`, `E`).
   */
  exchange(messages: Uint8Array, status: string, send: (bytes: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array>;
  /** The number of statements held. */
  readonly size: number;
}

export function statementCache(max = 256): StatementCache {
  const held = new Map<string, string>();
  // Names no earlier cache on the same backend (a server closed and served again) can have used.
  const prefix = `sgp_s${randomBytes(4).toString('hex')}_`;
  let next = 0;
  const close = (name: string) =>
    concat([frame(CLOSE, concat([new Uint8Array([0x53]), utf8.encode(name), new Uint8Array([0])])), frame(SYNC, new Uint8Array())]);

  return {
    get size() {
      return held.size;
    },
    async exchange(messages, status, send) {
      const exchange = status === 'E' ? undefined : unnamedExchange(messages);
      if (!exchange || exchange.key.startsWith(PLAN_PER_CALL)) return send(messages);
      const name = held.get(exchange.key);
      if (!name) {
        if (held.size >= max) return send(messages);
        const fresh = `${prefix}${next++}`;
        const answer = await send(parseNamed(messages, exchange.parse, exchange.rest, fresh));
        if (answerOutcome(answer).parsed) held.set(exchange.key, fresh);
        return answer;
      }
      const answer = await send(bindNamed(messages, exchange.rest, name));
      const { bound, error } = answerOutcome(answer);
      if (!bound && error !== undefined && STALE.has(error)) {
        held.delete(exchange.key);
        await send(close(name));
        // Nothing ran (the Bind failed); outside a transaction the exchange can simply be sent again.
        if (status === 'I') return send(messages);
      }
      return concat([PARSE_COMPLETE, answer]);
    },
  };
}
