// Reads the user docs (README.md and docs/*.md) into what test/unit/docs.test.ts checks: fenced YAML experiments and
// fragments, `rebootlab` command lines (synopses expanded to concrete ones), and relative links with their anchors.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { parseDocument } from 'yaml';
import { loadExperimentText } from '../../lib/spec/load.js';
import { parseCommandLine } from '../../lib/cli/main.js';

/** A fenced block: its info string words (`yaml`, `fragment`), body and the 1-based line of its opening fence. */
export interface Fence {
  info: string[];
  body: string;
  line: number;
}

/** A place in the docs: repository-relative file and 1-based line. */
export interface DocPlace {
  file: string;
  line: number;
}

/**
 * The docs the test reads, repository-relative: README.md, every Markdown file under docs/, and bench/README.md (the
 * development figures the docs link to).
 */
export function docFiles(repoRoot: string): string[] {
  const pages = readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return ['README.md', ...pages.sort().map((f) => posix.join('docs', f.split('\\').join('/'))), 'bench/README.md'];
}

/** Every fenced block (``` or ~~~) of a Markdown text, in order. An unclosed fence runs to the end. */
export function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const marker = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(marker)) body.push(lines[j++]!);
    found.push({ info: open[3]!.trim().split(/\s+/).filter(Boolean), body: body.join('\n'), line: i + 1 });
    i = j;
  }
  return found;
}

/** The text outside fenced blocks, same line count (fenced lines blanked), so line numbers still hold. */
export function prose(markdown: string): string {
  const lines = markdown.split('\n');
  for (const fence of fences(markdown)) {
    const end = fence.line + fence.body.split('\n').length;
    for (let i = fence.line - 1; i <= end && i < lines.length; i++) lines[i] = '';
  }
  return lines.join('\n');
}

const EXPERIMENT_API_VERSION = /^apiVersion:\s*rebootlab\.dev\/v1alpha1\s*$/m;

/**
 * The experiment a `yaml fragment` block completes: its top-level keys replace these. One Deployment `web` with a
 * Service (what probes and expectations name), a timed power-off: the smallest experiment that validates.
 */
export const FRAGMENT_BASE = `apiVersion: rebootlab.dev/v1alpha1
kind: Experiment
metadata: { name: docs-fragment }
cluster: { workers: 2 }
workloads:
  - { name: web, kind: Deployment, replicas: 2, placement: target, service: { port: 80 } }
fault: { type: power-off, duration: 60s }
`;

/** What a YAML block is to the test. */
export type YamlKind = 'experiment' | 'fragment' | 'skip' | 'unmarked';

/** How a fenced `yaml` block is read: an experiment (has the apiVersion), marked `fragment` or `skip`, or unmarked. */
export function yamlKind(fence: Fence): YamlKind {
  if (fence.info.includes('skip')) return 'skip';
  if (fence.info.includes('fragment')) return 'fragment';
  return EXPERIMENT_API_VERSION.test(fence.body) ? 'experiment' : 'unmarked';
}

/** The fenced blocks whose language (first info word) is YAML. */
export function yamlFences(markdown: string): Fence[] {
  return fences(markdown).filter((f) => f.info[0] === 'yaml' || f.info[0] === 'yml');
}

/**
 * Validates a YAML block with the project's own loader: an experiment as written, a fragment merged onto
 * {@link FRAGMENT_BASE} (its top-level keys replace the base's). Relative paths in it resolve from the doc's folder.
 * @returns the loader's issue lines (empty when valid).
 */
export function validateYamlBlock(repoRoot: string, place: DocPlace, fence: Fence): string[] {
  let text = fence.body;
  if (yamlKind(fence) === 'fragment') {
    const base = parseDocument(FRAGMENT_BASE);
    const fragment = parseDocument(fence.body);
    if (fragment.errors.length > 0) return fragment.errors.map((e) => e.message);
    for (const [key, value] of Object.entries((fragment.toJS() ?? {}) as Record<string, unknown>)) base.set(key, value);
    text = base.toString();
  }
  const file = join(repoRoot, dirname(place.file), `${posix.basename(place.file)}-line-${place.line}.yaml`);
  try {
    loadExperimentText(file, text);
    return [];
  } catch (error) {
    const issues = (error as { issues?: { path: string; message: string }[] }).issues;
    return issues && issues.length > 0 ? issues.map((i) => `${i.path}: ${i.message}`) : [(error as Error).message];
  }
}

/** A `rebootlab` command line found in the docs, as written (after any `$ ` prompt). */
export interface CommandLine extends DocPlace {
  text: string;
}

const COMMAND_START = /^(?:npx\s+)?rebootlab\s+\S/;

/**
 * The `rebootlab …` / `npx rebootlab …` command lines of a Markdown text: every line of `sh`/`bash`/`shell` blocks
 * (each `&&`/`;`/`|` segment), lines after a `$ ` prompt in other blocks, and inline code spans in the prose.
 * Trailing `# comments` are dropped.
 */
export function commandLines(file: string, markdown: string): CommandLine[] {
  const found: CommandLine[] = [];
  const add = (text: string, line: number) => {
    const command = text.replace(/\s+#.*$/, '').trim();
    if (COMMAND_START.test(command)) found.push({ file, line, text: command });
  };
  for (const fence of fences(markdown)) {
    const shell = ['sh', 'bash', 'shell'].includes(fence.info[0] ?? '');
    fence.body.split('\n').forEach((raw, i) => {
      const prompted = /^\s*\$\s+(.*)$/.exec(raw);
      if (!shell && !prompted) return;
      for (const segment of (prompted ? prompted[1]! : raw).split(/\s(?:&&|;|\|\|?)\s/)) add(segment, fence.line + 1 + i);
    });
  }
  prose(markdown).split('\n').forEach((text, i) => {
    for (const span of text.matchAll(/`([^`]+)`/g)) add(span[1]!, i + 1);
  });
  return found;
}

/**
 * Splits a command line into words as a POSIX shell would for the simple lines the docs hold: whitespace-separated,
 * single and double quotes grouping.
 */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/**
 * A synopsis (`run <file.yaml|script.ts> [--out reports] [--set path=value]...`) as one concrete command line:
 * Markdown's `\|` read as `|`, every optional part included, `<placeholder>` as a word (spaces as `-`), the first of
 * `a|b` alternatives, `...`/`..` repetition marks dropped. A plain command line comes back unchanged.
 */
export function expandSynopsis(text: string): string {
  return text
    .replace(/\\\|/g, '|')
    .replace(/<([^>]+)>/g, (_, inner: string) => inner.split('|')[0]!.replace(/\.\.+$/, '').trim().replace(/\s+/g, '-'))
    .replace(/[[\]]/g, ' ')
    .replace(/(^|\s)\.\.\.?(?=\s|$)/g, ' ')
    .replace(/\.\.\.?(?=\s|$)/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (word.startsWith('--') || !word.includes('|') ? word : word.split('|')[0]!))
    .join(' ');
}

/**
 * Parses one documented command line with the CLI's real definitions, without running it.
 * A line that only names a command (`rebootlab report`, `rebootlab run --help`) must name one that exists: a missing
 * argument is fine there, an unknown command is not.
 * @returns the problem in one line, or null when it parses.
 */
export async function checkCommandLine(text: string): Promise<string | null> {
  const words = shellWords(expandSynopsis(text)).slice(text.startsWith('npx') ? 2 : 1);
  const help = words.includes('--help') || words.includes('-h');
  const argv = words.filter((w) => w !== '--help' && w !== '-h');
  if (help && argv.length === 0) return null;
  const namesOnly = help || argv.length === 1 || (argv[0] === 'cluster' && argv.length === 2);
  try {
    await parseCommandLine(argv);
    return null;
  } catch (error) {
    const message = (error as Error).message;
    if (namesOnly && /^rebootlab \S+: missing |^missing required argument/i.test(message)) return null;
    return message;
  }
}

/** A relative link of the docs: where it is, the target as written, and the repository-relative path it names. */
export interface DocLink extends DocPlace {
  target: string;
  path: string;
  anchor: string | null;
}

/** Every Markdown link and image in the prose whose target is not a URL, resolved against the doc's folder. */
export function relativeLinks(file: string, markdown: string): DocLink[] {
  const links: DocLink[] = [];
  prose(markdown).split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const path = pathPart === '' ? file : posix.normalize(posix.join(posix.dirname(file), pathPart));
      links.push({ file, line: i + 1, target, path, anchor: anchor ?? null });
    }
  });
  return links;
}

/**
 * The anchors GitHub gives a Markdown file's headings (lower case, punctuation but `-` and `_` dropped, spaces as
 * `-`, a repeated heading numbered `-1`, `-2`), plus explicit `<a id="…">` and `<a name="…">` anchors.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = heading[1]!.toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
      const count = seen.get(slug) ?? 0;
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/**
 * What is wrong with a relative link: its file or folder missing, or an anchor its Markdown target lacks.
 * @returns one line, or null when it resolves.
 */
export function checkLink(repoRoot: string, link: DocLink): string | null {
  const absolute = join(repoRoot, link.path);
  if (link.path.startsWith('..') || !existsSync(absolute)) return `${link.target}: no such file or folder in the repository (${link.path})`;
  if (link.anchor === null || !link.path.endsWith('.md') || !statSync(absolute).isFile()) return null;
  return headingAnchors(readFileSync(absolute, 'utf8')).has(link.anchor) ? null : `${link.target}: ${link.path} has no heading with anchor #${link.anchor}`;
}
