// What a run does on SIGINT, SIGTERM, SIGHUP or a crash: the fault guard restores every node first, then the run
// is aborted (reports still written, exit 130) or, after a crash, the process exits 3. The third signal quits at
// once, printing what is still faulted and the command that restores it.
import { ExitCode } from '../common/errors.js';
import { describePending, type FaultGuard } from '../faults/index.js';
import type { Progress } from './progress.js';

/** How long after the faults were restored on a signal the run may take to write its reports, milliseconds. */
const EXIT_AFTER_SIGNAL_MS = 30_000;

/**
 * Installs one guard's handlers at a time (a run with several variants swaps guards). On a signal (SIGINT,
 * SIGTERM, SIGHUP), once the guard restored every fault, `controller` is aborted so waits end and the run writes
 * its reports as interrupted; the process exits 130 at the latest 30 s later. On an uncaught error it exits 3
 * after restoring. The third signal exits 130 at once, after printing each fault still in place and
 * `rebootlab doctor --restore --reports <run dir>`.
 */
export class SignalHandlers {
  #uninstall: () => void = () => {};
  #forcedExit: NodeJS.Timeout | undefined;

  constructor(readonly controller: AbortController, readonly progress: Progress) {}

  /** Replaces the handlers of the previous guard with those of `guard`. */
  install(guard: FaultGuard): void {
    this.#uninstall();
    this.#uninstall = guard.installHandlers((exitCode, trigger, errors) => {
      if (trigger === 'SIGHUP') {
        // The terminal is gone: writing to it fails (EIO, EPIPE). Finish the report regardless.
        for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
      }
      this.controller.abort();
      for (const e of errors) this.progress.log('warn', `restore failed: ${e instanceof Error ? e.message : String(e)}`);
      if (exitCode !== ExitCode.Interrupted) process.exit(exitCode); // a crash: faults restored, journal flushed per line
      this.progress.log('warn', `${trigger}: faults restored; finishing the report (Ctrl-C twice more to quit now)`);
      this.#forcedExit = setTimeout(() => process.exit(ExitCode.Interrupted), EXIT_AFTER_SIGNAL_MS);
      this.#forcedExit.unref();
    }, (pending, trigger) => {
      const lines = [`${trigger} a third time: quitting now${pending.length === 0 ? '; no fault left in place' : ''}`, ...describePending(pending, guard.runDir)];
      // Straight to stderr, also with -o json (no progress sink): this is the last thing the process says.
      try {
        process.stderr.write(`${lines.join('\n')}\n`);
      } catch {
        // a closed terminal (SIGHUP): pending-restore.json still lists the faults
      }
      process.exit(ExitCode.Interrupted);
    });
  }

  /** Removes the handlers and the pending forced exit. */
  uninstall(): void {
    this.#uninstall();
    this.#uninstall = () => {};
    if (this.#forcedExit) clearTimeout(this.#forcedExit);
  }
}
