/**
 * Sampled filtered reads. Every visitor falls in one of 64 samples by their id (`analytics_sample`,
 * 20261210090000_analytics_session_samples.sql). A filtered read expected to read more sessions
 * than ANALYTICS_SAMPLE_SESSIONS keeps the sessions of the first half, quarter, … of the samples
 * (the largest power-of-two share that stays within it) and scales every figure read from them by
 * the inverse of that share: a visitor's sessions are all in or all out, so distinct visitors,
 * bounce rates and durations are those of a random share of the people, not of their sessions.
 * Sums kept exactly elsewhere (the slot sums) are not scaled. Unfiltered reads are never sampled.
 */
export const SAMPLES = 64;

/** The samples a read keeps: the first `kept` of the 64 (64: every visitor, the figures exact). */
export interface Sample {
  kept: number;
}

export const EVERY_VISITOR: Sample = { kept: SAMPLES };

/**
 * What a session costs a read that also walks its page slots (a page breakdown, a page filter),
 * against one read from its own row: measured at 10M events (bench/RESULTS.md).
 */
const PAGE_READ_COST = 6;

/**
 * The sample of a read expected to read `sessions` sessions (and their pages, `pages`), at most
 * `target` of them read, each read of pages counting as several (0: never sampled).
 */
export function sampleFor(sessions: number, target: number, pages: boolean): Sample {
  const cost = sessions * (pages ? PAGE_READ_COST : 1);
  let kept = SAMPLES;
  while (target > 0 && kept > 1 && (cost * kept) / SAMPLES > target) kept /= 2;
  return { kept };
}

/** What a figure read from the sample's sessions is multiplied by. */
export const scaleOf = (sample: Sample) => SAMPLES / sample.kept;

/** The share of the visitors a sampled read counted, for its answer (undefined: every visitor). */
export const sampledShare = (sample: Sample) => (sample.kept < SAMPLES ? { fraction: sample.kept / SAMPLES } : undefined);
