// Fans reporter calls out to several reporters; one that throws is logged and the others continue.
import type { LogFn } from '../observe/journal.js';
import type { Observation, PhaseObservation } from '../observe/types.js';
import type { Reporter, RunResult } from './reporter.js';
import type { RunInfo } from './result-types.js';

/** A Reporter that forwards every call to `reporters`, in order. A reporter's exception is logged as a warning. */
export class Multiplexer implements Reporter {
  /** The reporters that threw in onEnd (their outputs were not written), in order, with what they threw. */
  readonly endFailures: { name: string; error: Error }[] = [];

  constructor(
    private readonly reporters: readonly { name: string; reporter: Reporter }[],
    private readonly log: LogFn,
  ) {}

  private each(method: string, call: (r: Reporter) => void): void {
    for (const { name, reporter } of this.reporters) {
      try {
        call(reporter);
      } catch (err) {
        this.log('warn', `reporter ${name} failed in ${method}: ${(err as Error).message}`);
      }
    }
  }

  onBegin(run: RunInfo): void {
    this.each('onBegin', (r) => r.onBegin?.(run));
  }

  onPhase(event: PhaseObservation): void {
    this.each('onPhase', (r) => r.onPhase?.(event));
  }

  onObservation(obs: Observation): void {
    this.each('onObservation', (r) => r.onObservation?.(obs));
  }

  onStatus(text: string): void {
    this.each('onStatus', (r) => r.onStatus?.(text));
  }

  onLog(level: 'info' | 'warn', message: string): void {
    this.each('onLog', (r) => r.onLog?.(level, message));
  }

  async onEnd(result: RunResult): Promise<void> {
    for (const { name, reporter } of this.reporters) {
      try {
        await reporter.onEnd?.(result);
      } catch (err) {
        this.endFailures.push({ name, error: err as Error });
        this.log('warn', `reporter ${name} failed in onEnd: ${(err as Error).message}`);
      }
    }
  }

  onExit(): void {
    this.each('onExit', (r) => r.onExit?.());
  }

  printsToStdio(): boolean {
    return this.reporters.some(({ reporter }) => reporter.printsToStdio?.() ?? false);
  }
}
