// The run session's pieces that need no cluster: the exit-code mapping every run path shares, and opening a
// session on a bad --out (bad input before anything runs, progress closed).
import { expect } from 'chai';
import { ExitCode, InputError } from '../../../lib/common/errors.js';
import { exitCodeFor, withRunSession } from '../../../lib/run/session.js';
import type { Progress } from '../../../lib/run/progress.js';

describe('run session', () => {
  describe('exitCodeFor', () => {
    it('maps one run: passed 0, failed 1, interrupted 130', () => {
      expect(exitCodeFor(['passed'])).to.equal(ExitCode.Ok);
      expect(exitCodeFor(['failed'])).to.equal(ExitCode.ExpectationFailed);
      expect(exitCodeFor(['interrupted'])).to.equal(ExitCode.Interrupted);
    });

    it('maps a matrix: any interrupted variant or an aborted session is 130, before any failure', () => {
      expect(exitCodeFor(['failed', 'interrupted'])).to.equal(ExitCode.Interrupted);
      expect(exitCodeFor(['passed', 'passed'], { interrupted: true })).to.equal(ExitCode.Interrupted);
      expect(exitCodeFor([], { interrupted: true })).to.equal(ExitCode.Interrupted);
      expect(exitCodeFor(['passed', 'failed'])).to.equal(ExitCode.ExpectationFailed);
      expect(exitCodeFor(['passed', 'passed'])).to.equal(ExitCode.Ok);
    });

    it('a baseline regression fails runs that passed', () => {
      expect(exitCodeFor(['passed'], { regressed: true })).to.equal(ExitCode.ExpectationFailed);
    });
  });

  describe('withRunSession', () => {
    it('refuses an --out under /proc before the body runs, and closes progress', async () => {
      let closed = 0;
      let ran = false;
      const progress: Progress = { phase() {}, onObservation() {}, log() {}, close: () => void (closed += 1) };
      const error = await withRunSession({ outDir: '/proc/rebootlab-reports', provider: 'kind', reuseCluster: false, keepCluster: false, progress }, async () => {
        ran = true;
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InputError);
      expect((error as InputError).message).to.match(/^--out \/proc\/rebootlab-reports: not a place for reports/);
      expect(ran).to.equal(false);
      expect(closed).to.equal(1);
    });
  });
});
