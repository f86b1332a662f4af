// A number field's allowed range in the players' words, from its JSON Schema bounds — the
// same sentences the server refuses a number past them with (ghillie/ranges.py), so the
// page's own check before sending reads as the server's refusal would.

import { t } from "./i18n.js";

/** The bounds of a number schema: {whole, low, high, lowOpen, highOpen} (ends may be null). */
export function rangeOf(schema) {
  const whole = schema.type === "integer";
  let low = schema.minimum ?? null;
  let lowOpen = false;
  if (low === null && typeof schema.exclusiveMinimum === "number") [low, lowOpen] = [schema.exclusiveMinimum, true];
  let high = schema.maximum ?? null;
  let highOpen = false;
  if (high === null && typeof schema.exclusiveMaximum === "number") [high, highOpen] = [schema.exclusiveMaximum, true];
  // An integer above 0 is an integer from 1: said so.
  if (whole && low !== null && lowOpen) [low, lowOpen] = [Math.floor(low) + 1, false];
  if (whole && high !== null && highOpen) [high, highOpen] = [Math.ceil(high) - 1, false];
  return { whole, low, high, lowOpen, highOpen };
}

/** Is `value` within the range? */
export function inRange(value, range) {
  const { low, high, lowOpen, highOpen } = range;
  if (low !== null && (lowOpen ? value <= low : value < low)) return false;
  if (high !== null && (highOpen ? value >= high : value > high)) return false;
  return true;
}

/** "Burst: a whole number from 1 to 5." — `unit` (in words, already the reader's) goes
 * with the last number named. */
export function rangeWords(field, unit, range) {
  const { whole, low, high, lowOpen, highOpen } = range;
  const amount = (n) => (unit ? t("{n} {unit}", { n, unit }) : String(n));
  if (low !== null && high !== null) {
    const args = { field, low: String(low), high: amount(high) };
    if (whole) return t("{field}: a whole number from {low} to {high}.", args);
    if (lowOpen && highOpen) return t("{field}: more than {low} and less than {high}.", args);
    if (lowOpen) return t("{field}: more than {low}, up to {high}.", args);
    if (highOpen) return t("{field}: from {low} to less than {high}.", args);
    return t("{field}: from {low} to {high}.", args);
  }
  if (low !== null) {
    const args = { field, low: amount(low) };
    if (whole) return t("{field}: a whole number, at least {low}.", args);
    return lowOpen ? t("{field}: more than {low}.", args) : t("{field}: at least {low}.", args);
  }
  if (high !== null) {
    const args = { field, high: amount(high) };
    if (whole) return t("{field}: a whole number, at most {high}.", args);
    return highOpen ? t("{field}: less than {high}.", args) : t("{field}: at most {high}.", args);
  }
  return whole ? t("{field}: a whole number.", { field }) : t("{field}: a number.", { field });
}
