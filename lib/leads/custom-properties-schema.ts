import { z } from 'zod';

/**
 * A lead's `custom_properties`: the values of the site's custom properties by key (the
 * definitions are lib/leads/property-schema.ts; the checks against them lib/leads/property-values.ts).
 */

/** Longest text value. */
export const MAX_TEXT_VALUE = 1_000;

/** A stored value: text, date and choice as strings, number as a number. */
export type PropertyValue = string | number;
export type CustomProperties = Record<string, PropertyValue>;

/** What a write may carry: a value per key, `null` (or an empty string) clearing it. */
export const customPropertiesInputSchema = z
  .record(z.string().max(40), z.union([z.string().max(MAX_TEXT_VALUE), z.number(), z.null()]))
  .describe(
    "Values of the site's custom properties by key (GET /api/leads/properties): text a string, number a number, date `YYYY-MM-DD`, choice one of its options; null or an empty string clears it. An unknown key or a value of the wrong type is 400 naming the field. On update only the given keys change.",
  );

export const customPropertiesOutputSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .describe("Values of the site's custom properties by key");
