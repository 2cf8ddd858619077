// The CLI's error printing: one line, the hint on a second, stack only with -v, exit code per error class.
import { expect } from 'chai';
import { InfraError, InputError } from '../../../lib/common/errors.js';
import { printError, type Streams } from '../../../lib/cli/print-error.js';

function capture(): Streams & { out: string; err: string } {
  const streams = { out: '', err: '', stdout: (t: string) => void (streams.out += t), stderr: (t: string) => void (streams.err += t) };
  return streams;
}

describe('cli/print-error', () => {
  it('prints an InfraError and its hint, exit 3', () => {
    const streams = capture();
    const code = printError(new InfraError('docker pause kind-worker failed: daemon down', 'Run: rebootlab doctor'), false, streams);
    expect(code).to.equal(3);
    expect(streams.err).to.equal('ERROR: docker pause kind-worker failed: daemon down\nRun: rebootlab doctor\n');
  });

  it('prints every issue of an InputError, exit 2', () => {
    const streams = capture();
    const issues = [
      { file: 'a.yaml', line: 3, column: 5, path: 'fault.count', message: 'must be ≥ 1, got 0' },
      { file: 'a.yaml', line: 9, column: 1, path: 'bogus', message: 'unknown field' },
    ];
    expect(printError(new InputError('x', 'y', { issues }), false, streams)).to.equal(2);
    expect(streams.err).to.equal('ERROR: a.yaml:3:5: fault.count: must be ≥ 1, got 0\nERROR: a.yaml:9:1: bogus: unknown field\n');
  });

  it('treats an unexpected exception as a bug: exit 3, stack only with -v', () => {
    const quiet = capture();
    expect(printError(new TypeError('x is undefined'), false, quiet)).to.equal(3);
    expect(quiet.err).to.equal('ERROR: unexpected error: x is undefined\nThis is a bug in rebootlab; rerun with -v for the stack trace.\n');
    const verbose = capture();
    printError(new TypeError('x is undefined'), true, verbose);
    expect(verbose.err).to.match(/^ERROR: unexpected error: x is undefined\nTypeError: x is undefined\n\s+at /);
  });
});
