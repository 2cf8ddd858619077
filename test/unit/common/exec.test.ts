import { expect } from 'chai';
import { CommandError, formatCommand, lastLine, run } from '../../../lib/common/exec.js';
import { ExitCode } from '../../../lib/common/errors.js';

describe('run', () => {
  it('resolves to stdout without the trailing newline', async () => {
    expect(await run('sh', ['-c', 'echo hello'])).to.equal('hello');
  });

  it('throws a one-line InfraError naming the command and the last stderr line, keeping all stderr', async () => {
    let error: CommandError | undefined;
    await run('sh', ['-c', 'echo first >&2; echo "the real reason" >&2; exit 4']).catch((e: CommandError) => { error = e; });
    expect(error).to.be.instanceOf(CommandError);
    expect(error!.message).to.equal(`sh -c 'echo first >&2; echo "the real reason" >&2; exit 4' failed: the real reason`);
    expect(error!.stderr).to.equal('first\nthe real reason');
    expect(error!.exitCodeOfCommand).to.equal(4);
    expect(error!.exitCode).to.equal(ExitCode.Infrastructure);
  });

  it('names a missing program', async () => {
    const error = await run('rebootlab-no-such-tool', ['x']).catch((e: Error) => e);
    expect((error as Error).message).to.equal('rebootlab-no-such-tool x failed: rebootlab-no-such-tool: command not found');
  });

  it('reports a timeout in milliseconds', async () => {
    const error = await run('sleep', ['5'], { timeoutMs: 100 }).catch((e: Error) => e);
    expect((error as Error).message).to.equal('sleep 5 failed: timed out after 100 ms');
  });
});

describe('formatCommand and lastLine', () => {
  it('quotes only what needs quoting', () => {
    expect(formatCommand('docker', ['network', 'connect', '--ip', '172.18.0.3', 'kind', 'kind-worker'])).to.equal('docker network connect --ip 172.18.0.3 kind kind-worker');
    expect(formatCommand('sh', ['-c', "it's"])).to.equal(`sh -c 'it'\\''s'`);
  });

  it('writes a word with a control or bidi character in ANSI-C quotes, escaped: one line, read in the order it runs', () => {
    expect(formatCommand('sh', ['-c', "a\nb 'c' \\d"])).to.equal(`sh -c $'a\\nb \\'c\\' \\\\d'`);
    expect(formatCommand('echo', ['x\u202ey', 'e\u001b[2J'])).to.equal(`echo $'x\\u202ey' $'e\\u001b[2J'`);
  });

  it('takes the last non-empty line', () => {
    expect(lastLine('a\n b \n\n')).to.equal('b');
    expect(lastLine('')).to.equal('');
  });
});
