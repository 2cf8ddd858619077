// Counts in words for the sentences reports and forecasts print.

/** `n` and `noun`, the noun plural (an `s` added) unless `n` is 1: `1 rule`, `3 rules`. Never throws. */
export function countText(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
