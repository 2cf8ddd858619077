// V8 heap pacing for a process that runs the observer: collect garbage before the heap grows far past what is live.
import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets the heap grow past the live size before the next full collection, percent
 * (`--heap-growing-percent`; V8 otherwise picks a factor up to 4 when allocation is fast and collection slow).
 * The observer allocates a parsed object per watch event and keeps few of them: measured with
 * bench/observer-capacity.ts at 5000 events/s (10,000 pods watched, load average 3.6 to 6), peak RSS went from
 * 404 MiB to 244 MiB at 95 µs of CPU per event either way; `rebootlab report` on a 10,000-pod journal took about
 * 0.5 CPU s more and 130 MiB less.
 */
export const HEAP_GROWING_PERCENT = 50;

let applied = false;

/**
 * Set {@link HEAP_GROWING_PERCENT} for this process, once. V8 reads the flag at every collection, so setting it
 * after start-up takes effect from the next one. Idempotent; never throws.
 */
export function limitHeapGrowth(): void {
  if (applied) return;
  applied = true;
  try {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  } catch {
    // an embedder without the flag: V8's own pacing stays
  }
}
