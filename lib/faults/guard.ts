// The fault guard: an undo registry filled BEFORE each fault is injected (Playwright queues a teardown
// before its setup), emptied in reverse on normal restore, SIGINT, SIGTERM, SIGHUP, or an uncaught error.
import { ExitCode, type ExitCodeValue } from '../common/errors.js';
import type { RestoreCommand, Undo } from '../cluster/provider.js';
import { writePendingRestore } from './restore-file.js';

/** One registered undo. */
export interface GuardEntry {
  readonly id: number;
  /** What it undoes, e.g. `pause kind-worker`. */
  readonly label: string;
  readonly nodes: readonly string[];
  readonly restoreCommands: readonly RestoreCommand[];
  readonly undo: Undo;
}

/** Options of {@link FaultGuard}. */
export interface FaultGuardOptions {
  /** Run directory to keep pending-restore.json in; null writes no file (unit tests). */
  runDir: string | null;
}

/** Why the guard restored everything on its own. */
export type GuardTrigger = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'uncaughtException' | 'unhandledRejection';

/** Signals the guard restores on: Ctrl-C, `kill`, and a closed terminal or SSH session. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Called once every pending undo ran after a signal or an uncaught error; the caller flushes and exits. */
export type GuardExit = (exitCode: ExitCodeValue, trigger: GuardTrigger, errors: unknown[], cause?: unknown) => void;

/** Called on the third signal, at once, with the entries still pending (their faults are still in place); the caller exits. */
export type GuardQuit = (pending: readonly GuardEntry[], trigger: GuardTrigger) => void;

/**
 * Holds the undos of injected faults. `register` before acting; `release` after the fault's duration;
 * `releaseAll` (reverse order) at the end of a run or on a signal. Every undo runs at most once.
 */
export class FaultGuard {
  readonly #entries: GuardEntry[] = [];
  readonly #runDir: string | null;
  #nextId = 0;
  #restoringAll: Promise<unknown[]> | null = null;

  constructor(options: FaultGuardOptions) {
    this.#runDir = options.runDir;
  }

  /** Entries not yet undone, in registration order. */
  get pending(): readonly GuardEntry[] {
    return [...this.#entries];
  }

  /**
   * Adds an undo and rewrites pending-restore.json synchronously, so it is on disk before the fault.
   * @throws Error when the file cannot be written (then do not act).
   */
  register(label: string, nodes: readonly string[], undo: Undo, restoreCommands: readonly RestoreCommand[]): GuardEntry {
    const entry: GuardEntry = { id: this.#nextId++, label, nodes: [...nodes], restoreCommands: [...restoreCommands], undo };
    this.#entries.push(entry);
    this.#persist();
    return entry;
  }

  /** Runs one entry's undo (if still pending) and drops it. @throws the undo's error; the entry stays pending. */
  async release(entry: GuardEntry): Promise<void> {
    if (!this.#entries.includes(entry)) return;
    await entry.undo();
    const i = this.#entries.indexOf(entry);
    if (i >= 0) this.#entries.splice(i, 1);
    this.#persist();
  }

  /**
   * Runs every pending undo, newest first, continuing past failures; resolves to the errors (empty when
   * all succeeded). Concurrent calls share one pass.
   */
  releaseAll(): Promise<unknown[]> {
    this.#restoringAll ??= (async () => {
      const errors: unknown[] = [];
      for (const entry of [...this.#entries].reverse()) {
        try {
          await this.release(entry);
        } catch (error) {
          errors.push(error);
        }
      }
      return errors;
    })().finally(() => {
      this.#restoringAll = null;
    });
    return this.#restoringAll;
  }

  /**
   * On SIGINT, SIGTERM, SIGHUP (a closed terminal or SSH session), uncaughtException and unhandledRejection: run every
   * pending undo in reverse, then call `onExit` once with 130 (signals) or 3 (uncaught errors). A second signal is
   * ignored, so an impatient Ctrl-C cannot leave a node paused; the third one quits at once, even while restoring
   * or writing reports: `onQuit` gets the entries still pending (they stay in pending-restore.json), or without
   * `onQuit`, `onExit` is called with an error naming `rebootlab doctor --restore`. Library code does not exit:
   * `onExit` and `onQuit` do. Returns a function that removes the handlers.
   */
  installHandlers(onExit: GuardExit, onQuit?: GuardQuit): () => void {
    let signals = 0;
    let exited = false;
    const exit: GuardExit = (...args) => {
      if (exited) return;
      exited = true;
      onExit(...args);
    };
    const handle = (trigger: GuardTrigger, code: ExitCodeValue, cause?: unknown) => {
      const isSignal = (SIGNALS as readonly string[]).includes(trigger);
      if (isSignal) signals += 1;
      if (!isSignal && signals > 0) return; // an error while restoring after a signal: that pass goes on
      if (signals <= 1) {
        void this.releaseAll().then((errors) => exit(code, trigger, errors, cause));
      } else if (signals === 3) {
        // A hung Docker must not trap the user: the third signal gives up; pending-restore.json
        // still lists what is left, for `rebootlab doctor --restore`.
        if (onQuit) onQuit(this.pending, trigger);
        else exit(code, trigger, [new Error(`restore abandoned after a third signal; run: ${restoreCommandFor(this.#runDir)}`)], cause);
      }
    };
    const listeners = SIGNALS.map((signal) => [signal, () => handle(signal, ExitCode.Interrupted)] as const);
    const onException = (error: unknown) => handle('uncaughtException', ExitCode.Infrastructure, error);
    const onRejection = (reason: unknown) => handle('unhandledRejection', ExitCode.Infrastructure, reason);
    for (const [signal, listener] of listeners) process.on(signal, listener);
    process.on('uncaughtException', onException);
    process.on('unhandledRejection', onRejection);
    return () => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    };
  }

  /** Run directory holding this guard's pending-restore.json; null when it writes none. */
  get runDir(): string | null {
    return this.#runDir;
  }

  #persist(): void {
    if (this.#runDir === null) return;
    writePendingRestore(
      this.#runDir,
      this.#entries.map((e) => ({ label: e.label, nodes: [...e.nodes], commands: [...e.restoreCommands] })),
    );
  }
}

/** `rebootlab doctor --restore --reports <runDir>` (the run directory itself is searched), or without a run directory the bare command. */
export function restoreCommandFor(runDir: string | null): string {
  return runDir === null ? 'rebootlab doctor --restore' : `rebootlab doctor --restore --reports ${/^[\w./-]+$/.test(runDir) ? runDir : JSON.stringify(runDir)}`;
}

/**
 * What a quitting process prints about the faults still in place, one line each: the label and the command lines
 * that undo it, then the one command that restores them all. Empty when nothing is pending.
 */
export function describePending(pending: readonly GuardEntry[], runDir: string | null): string[] {
  if (pending.length === 0) return [];
  return [
    ...pending.map((e) => `still faulted: ${e.label}${e.restoreCommands.length > 0 ? ` (undo: ${e.restoreCommands.map((c) => c.join(' ')).join(' && ')})` : ''}`),
    `restore with: ${restoreCommandFor(runDir)}`,
  ];
}
