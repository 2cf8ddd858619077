// The one-line input errors a spec loader reports, as a user reads them (`file:line:col: field: what to do`).
import { expect } from 'chai';
import { InputError, formatInputIssue } from '../../lib/common/errors.js';

/**
 * The formatted issues of the InputError that `load` throws, or [] when it loads cleanly. Fails the test when `load`
 * throws anything but an InputError (a crash is not a validation message).
 */
export function inputIssuesOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    expect(error).to.be.instanceOf(InputError);
    return (error as InputError).issues.map(formatInputIssue);
  }
  return [];
}

/** {@link inputIssuesOf} for an async loader (e.g. loadExperiment reading a file). */
export async function inputIssuesOfAsync(load: () => Promise<unknown>): Promise<string[]> {
  try {
    await load();
  } catch (error) {
    expect(error).to.be.instanceOf(InputError);
    return (error as InputError).issues.map(formatInputIssue);
  }
  return [];
}
