// "Did you mean" suggestions for misspelt names (fields, enum values, flags).

/** Edit distance (Levenshtein) between two strings, case-sensitive. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `input` (case-insensitive), if it is close enough to be a likely typo:
 * the shortest candidate the input is a prefix of (3+ characters), else one at most a third of the
 * input's length in edits away (at least 1), ignoring case.
 * @returns the candidate, or undefined when none is close.
 */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  // A truncated name ("nodeMonitorGrace") means the candidate it starts.
  const prefixed = [...candidates].filter((c) => lower.length >= 3 && c.toLowerCase().startsWith(lower));
  if (prefixed.length > 0) return prefixed.sort((a, b) => a.length - b.length)[0];
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(input.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Describes a wrong name: `did you mean "x"?` when one candidate is close, else `allowed: a, b, c`. */
export function suggestName(input: string, candidates: readonly string[]): string {
  const match = closestMatch(input, candidates);
  return match !== undefined ? `did you mean "${match}"?` : `allowed: ${candidates.join(', ')}`;
}
