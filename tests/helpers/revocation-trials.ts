import { performance } from 'node:perf_hooks';

/** An instance of the app under test: its base URL. */
export interface Instance {
  url: string;
}

export interface TrialOutcome {
  /** Requests with the old credential sent to the other instance after the taking-away request answered. */
  after: number;
  /** Of those, the ones the other instance accepted (must be 0). */
  acceptedAfter: number;
  /** Requests accepted by the other instance while the taking-away request was on its way. */
  acceptedDuring: number;
  /** How long the taking-away request took to answer, ms. */
  answerMs: number;
}

/** Concurrent requests hammering the other instance during a trial. */
const LOAD = 4;
/** Each hammering loop goes on until it sent this many requests after the answer. */
const AFTER_EACH = 2;

/** An answer that says the credential was accepted (anything but 401 and 403: a 400 or 404 came after authentication). */
export const accepted = (status: number) => status !== 401 && status !== 403;

/**
 * One trial: the other instance is hammered with the credential (LOAD concurrent loops of `attempt`,
 * loop i passing i so it can pick a route) until it accepted it a few times, then `takeAway` runs
 * against the revoking instance; every request sent after its answer must be refused.
 */
export async function trial(
  revoking: Instance,
  other: Instance,
  attempt: (base: string, loop: number) => Promise<number>,
  takeAway: (base: string) => Promise<void>,
): Promise<TrialOutcome> {
  // Each loop's route has accepted (and the other instance kept) the credential before it is taken away.
  for (const status of await Promise.all(Array.from({ length: LOAD }, (_, i) => attempt(other.url, i)))) {
    if (!accepted(status)) throw new Error(`the credential was refused (${status}) before it was taken away`);
  }
  let started = Infinity;
  let answered = Infinity;
  const outcome: TrialOutcome = { after: 0, acceptedAfter: 0, acceptedDuring: 0, answerMs: 0 };
  const loop = async (i: number) => {
    for (let sentAfter = 0; sentAfter < AFTER_EACH;) {
      const sentAt = performance.now();
      const ok = accepted(await attempt(other.url, i));
      if (sentAt > answered) {
        sentAfter++;
        outcome.after++;
        if (ok) outcome.acceptedAfter++;
      } else if (ok && sentAt > started) outcome.acceptedDuring++;
    }
  };
  const loops = Array.from({ length: LOAD }, (_, i) => loop(i));
  // The load is under way when the credential is taken away.
  await new Promise((resolve) => setTimeout(resolve, 2));
  started = performance.now();
  await takeAway(revoking.url);
  answered = performance.now();
  outcome.answerMs = answered - started;
  await Promise.all(loops);
  return outcome;
}

export interface Summary {
  trials: number;
  after: number;
  acceptedAfter: number;
  acceptedDuring: number;
  answerMs: { p50: number; p95: number; max: number };
}

export function summarize(outcomes: TrialOutcome[]): Summary {
  const ms = outcomes.map((o) => o.answerMs).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] * 10) / 10;
  return {
    trials: outcomes.length,
    after: outcomes.reduce((n, o) => n + o.after, 0),
    acceptedAfter: outcomes.reduce((n, o) => n + o.acceptedAfter, 0),
    acceptedDuring: outcomes.reduce((n, o) => n + o.acceptedDuring, 0),
    answerMs: { p50: at(0.5), p95: at(0.95), max: at(1) },
  };
}
