// Files the user hands over are read only when they are regular text files of bounded size, and outputs replace a
// link instead of writing through it (issue 27 items 5 and 14).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatInputIssue, hasControlOrBidi, type InputError, hiddenCharacterInScript, printable } from '../../../lib/common/errors.js';
import { readInputJson, readInputText } from '../../../lib/common/read-input.js';
import { replaceFile } from '../../../lib/common/replace-file.js';

describe('common/read-input and common/replace-file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebootlab-input-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular text file', () => {
    writeFileSync(join(dir, 'a.yaml'), 'a: é\n');
    expect(readInputText(join(dir, 'a.yaml'), { maxBytes: 100 })).to.equal('a: é\n');
  });

  it('refuses an empty path as "no file given", named by its label or as \'\' (not `: cannot read: no such file`)', async () => {
    const message = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        expect(error).to.have.property('exitCode', 2);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(message(() => readInputText('', { maxBytes: 100 }))).to.equal("'': cannot read: no file given (the path is empty)");
    expect(message(() => readInputJson('', { maxBytes: 100, label: '--baseline' }))).to.equal('--baseline: cannot read: no file given (the path is empty)');
    const { loadExperiment } = await import('../../../lib/spec/load.js');
    const error = await loadExperiment('').then(() => null, (e: unknown) => e as InputError);
    expect(error?.issues.map(formatInputIssue)).to.deep.equal(["'': no experiment file given (the path is empty)"]);
  });

  it('refuses, one line each (exit 2): missing, directory, FIFO (without waiting for a writer), device, too large, NUL, not UTF-8', () => {
    const refused = (path: string, maxBytes = 100): string => {
      try {
        readInputText(path, { maxBytes, label: 'L' });
      } catch (error) {
        expect(error).to.have.property('exitCode', 2);
        return (error as Error).message;
      }
      throw new Error(`${path} was read`);
    };
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'big'), 'x'.repeat(101));
    writeFileSync(join(dir, 'nul'), 'a\u0000b');
    writeFileSync(join(dir, 'latin1'), Buffer.from([0x61, 0xe9, 0x0a]));
    expect(refused(join(dir, 'missing'))).to.equal('L: cannot read: no such file');
    expect(refused(dir)).to.equal('L: cannot read: is a directory');
    // Before: Node's own message, the path a second time (`ELOOP: too many symbolic links encountered, open '…'`).
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    expect(refused(join(dir, 'loop-a'))).to.equal('L: cannot read: a loop of symbolic links');
    expect(refused(join(dir, 'big', 'x.yaml'))).to.equal('L: cannot read: a part of the path is a file, not a directory');
    expect(refused(join(dir, 'x'.repeat(300)))).to.equal('L: cannot read: the path or a name in it is too long');
    expect(refused(join(dir, 'fifo'))).to.equal('L: cannot read: not a regular file');
    expect(refused('/dev/zero')).to.equal('L: cannot read: not a regular file');
    expect(refused(join(dir, 'big'))).to.equal('L: cannot read: 101 bytes; at most 100 bytes (100 bytes) are read');
    expect(refused(join(dir, 'nul'))).to.equal('L: cannot read: not a text file (a NUL byte at offset 1)');
    expect(refused(join(dir, 'latin1'))).to.equal('L: cannot read: not a text file (not UTF-8)');
    writeFileSync(join(dir, 'bad.json'), '{"a":');
    expect(() => readInputJson(join(dir, 'bad.json'), { maxBytes: 100 })).to.throw(`${join(dir, 'bad.json')}: not JSON: `).with.property('exitCode', 2);
  });

  it('replaceFile replaces a symbolic link (its target untouched, a dangling one creates nothing) and leaves no temporary file', () => {
    writeFileSync(join(dir, 'victim'), 'X');
    symlinkSync(join(dir, 'victim'), join(dir, 'summary.md'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'result.json'));
    replaceFile(join(dir, 'summary.md'), 'new');
    replaceFile(join(dir, 'result.json'), '{}');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).to.equal('X');
    expect(lstatSync(join(dir, 'summary.md')).isFile()).to.equal(true);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).to.equal('new');
    expect(readdirSync(dir).sort()).to.deep.equal(['result.json', 'summary.md', 'victim']);
  });

  it('replaceFile over a directory fails and removes its temporary file', () => {
    mkdirSync(join(dir, 'report.html'));
    expect(() => replaceFile(join(dir, 'report.html'), 'x')).to.throw(/EISDIR|ENOTEMPTY|EEXIST|directory/i);
    expect(readdirSync(dir)).to.deep.equal(['report.html']);
  });

  it('printable escapes control characters and cuts the middle of a long text', () => {
    expect(printable('a\nb\u001b[2J\u0085\u2028c')).to.equal('a\\nb\\u001b[2J\\u0085\\u2028c');
    const cut = printable('x'.repeat(5000), 100);
    expect(cut).to.have.length.below(110);
    expect(cut).to.match(/^x+…\(4930 characters\)…x+$/);
  });

  it('printable escapes bidirectional marks, embeddings, overrides and isolates, which could reorder an error line', () => {
    // A file name with a right-to-left override would show 'exe.yaml' reversed; escaped, every character shows as written.
    expect(printable('run\u202eexe.yaml')).to.equal('run\\u202eexe.yaml');
    const bidi = ['\u200e', '\u200f', '\u061c', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of bidi) expect(printable(`a${c}b`)).to.equal(`a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    // Neighbours that do not reorder text pass through unchanged.
    expect(printable('a\u200db\u2065c\u206ad\u202fe')).to.equal('a\u200db\u2065c\u206ad\u202fe');
    expect(formatInputIssue({ file: 'x\u2067.yaml', line: 1, column: 2, path: 'name', message: 'bad \u202evalue' })).to.equal('x\\u2067.yaml:1:2: name: bad \\u202evalue');
  });

  it('hasControlOrBidi finds exactly the characters printable escapes, on every call (no global regex state)', () => {
    const found = ['\u0000', '\n', '\u001f', '\u007f', '\u0085', '\u009f', '\u2028', '\u2029', '\u200e', '\u200f', '\u061c', '\u202a', '\u202e', '\u2066', '\u2069'];
    for (const c of found) {
      expect(hasControlOrBidi(`a${c}b`), JSON.stringify(c)).to.equal(true);
      expect(hasControlOrBidi(`a${c}b`), `${JSON.stringify(c)} again`).to.equal(true);
    }
    for (const c of ['\u200d', '\u2065', '\u206a', '\u202f', '\u00a0', 'é', ' ']) expect(hasControlOrBidi(`a${c}b`), JSON.stringify(c)).to.equal(false);
  });
});

describe('common/errors: hiddenCharacterInScript (fault.backend.command)', () => {
  it('names the first control or bidi character but line breaks and tabs, with its position; null for a plain script', () => {
    expect(hiddenCharacterInScript('virsh start {node}\n\tvirsh resume {node}\r\n')).to.equal(null);
    expect(hiddenCharacterInScript('ok # \u202e')).to.equal('U+202E, a bidirectional formatting character, at character 6 (the text a reviewer reads would differ from what runs)');
    expect(hiddenCharacterInScript('a\u0000')).to.equal('U+0000, a control character, at character 2 (it hides text on a terminal and cannot be passed to a command)');
    expect(hiddenCharacterInScript('\u001b[2J')).to.equal('U+001B, a control character, at character 1 (it hides text on a terminal)');
    for (const c of ['\u200e', '\u200f', '\u061c', '\u202a', '\u202d', '\u2066', '\u2069']) expect(hiddenCharacterInScript(c), JSON.stringify(c)).to.match(/^U\+[0-9A-F]{4}, a bidirectional formatting character/);
    for (const c of ['\u007f', '\u0085', '\u2028', '\u2029']) expect(hiddenCharacterInScript(c), JSON.stringify(c)).to.match(/^U\+[0-9A-F]{4}, a control character/);
  });
});
