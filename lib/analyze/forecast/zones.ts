// Forecast, zone part: the NoExecute taints, from the causal model's own zone replay (lib/analyze/zones) run blind over
// the ways the targets' detections can fall into monitor passes. Where the outcome depends on a pass grouping or on
// which node wins a token, every outcome is given.
import type { TimeoutSettings } from '../../spec/settings.js';
import { secondsText } from '../predict-common.js';
import { blindChoices, informerRaceChoices } from '../zones/choices.js';
import { predictNoExecuteTaints } from '../zones/replay.js';
import { TAINT_LOOP_SECONDS } from '../zones/tolerances.js';
import { zoneKeyOf } from '../zones/zone-state.js';
import type { NodeTimeline, Window, ZoneStateChange } from '../types.js';
import { OBSERVATION_LATENCY_SECONDS, round3, windowOf } from '../windows.js';
import { hull, item } from './items.js';
import type { TargetNodeForecast } from './nodes.js';
import type { ForecastItem, ForecastOutcome, PreFaultNode, PreFaultPod } from './types.js';

/** Label that keeps a node out of its zone's disruption state (pkg/controller/nodelifecycle `labelNodeDisruptionExclusion`). */
const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/** One node's NoExecute taint as forecast: the outcomes, and the soonest the taint eviction controller can see it. */
export interface TaintForecast {
  node: string;
  key: string;
  /** Every outcome (a window of its receipt, or null: never tainted). */
  outcomes: ForecastOutcome[];
  /** Per tainted outcome, the soonest the taint can be written (what an eviction countdown counts from), seconds since time zero. */
  seenFromSeconds: (number | null)[];
}

/** How the detections of one scenario fall into monitor passes: per target, passes after its cohort's first. */
interface Scenario {
  name: string;
  passOf: Map<string, number>;
}

/** Inputs of {@link forecastTaints}. */
export interface ZoneForecastInput {
  settings: TimeoutSettings;
  nodes: readonly PreFaultNode[];
  targets: readonly TargetNodeForecast[];
  pods: readonly PreFaultPod[];
  /** When the observation ends, seconds since time zero: tokens after it are still forecast. */
  endSeconds: number;
}

/**
 * The NoExecute taint of every detected target. Targets whose fault starts together (a cohort) are detected in one
 * monitor pass or in several, depending on their heartbeat phases, which nobody knows before; the zone replay of the
 * causal model (blind: it never reads an outcome) runs over these scenarios: all of a cohort in one pass; one node
 * alone one pass before the rest; one node per pass (as many passes as the detection window holds). Which node of a
 * cohort gets which of its slots is not known (each pass lists its nodes in its lister's order): every node of a
 * cohort gets the hull of the cohort's slots, and "never" when some node of it is not tainted. Each scenario is replayed with the detections at the earliest and at the latest instant they can
 * have, and a taint's window is the hull over both. A taint written in the pass that swaps its zone to rate 0 races
 * the end of that pass (the 100 ms tainting loop): both outcomes. Each scenario is replayed a second time with every
 * in-pass unreachable taint lost to the informer-cache race (ZoneChoices.informerRace): a taint it moves is a second
 * outcome, its own window (not hulled with the first). Also the zone states each scenario passes through.
 */
export function forecastTaints(input: ZoneForecastInput): { taints: TaintForecast[]; items: ForecastItem[]; zoneNotes: string[] } {
  const detected = input.targets.filter((t) => t.detection !== null);
  if (detected.length === 0) return { taints: [], items: [], zoneNotes: [] };
  const monitor = input.settings.controllerManager.nodeMonitorPeriodMs / 1000;
  const real = (t: TargetNodeForecast) => ({ from: t.detection!.window.fromSeconds + 1 });
  // Per node, the scenarios' verdicts as shared chunks: every node of a cohort with the same own window gets the same
  // chunk (1000 simultaneous targets: one list of 1000 slots, not 1000 copies of it), and the same summary below.
  const results = new Map<string, TaintResult[][]>();
  const zoneNotes = new Set<string>();
  const pushChunk = (name: string, chunk: TaintResult[]) => {
    const list = results.get(name);
    if (list) list.push(chunk);
    else results.set(name, [chunk]);
  };
  for (const [scenario, race] of scenarios(detected, monitor).flatMap((sc) => [[sc, false], [sc, true]] as const)) {
    const early = replay(input, detected, scenario, 'early', race);
    const late = replay(input, detected, scenario, 'late', race);
    for (const change of early.zoneStates) zoneNotes.add(zoneNote(change, scenario.name));
    // Which node of a cohort (detected together, same zone) gets which token is not known (the lister's order): each
    // may get any of the cohort's slots, and when some of them are not tainted, any of them may be the one.
    const groups = new Map<string, TargetNodeForecast[]>();
    for (const t of detected) {
      const k = `${t.offSeconds}|${zoneOf(input.nodes, t.name)}`;
      const group = groups.get(k);
      if (group) group.push(t);
      else groups.set(k, [t]);
    }
    const earlyTaints = firstTaintItemByNode(early.items);
    const lateTaints = firstTaintItemByNode(late.items);
    for (const group of groups.values()) {
      const slots: { window: Window; seenFrom: number; why: string }[] = [];
      const misses: string[] = [];
      for (const t of group) {
        const a = earlyTaints.get(t.name);
        const b = lateTaints.get(t.name);
        if (!a || !b || !a.expected || !b.expected || a.window === null || b.window === null) {
          misses.push((a && !a.expected ? a.because : b?.because) ?? 'not tainted');
          continue;
        }
        slots.push({ window: windowOf(a.window.fromSeconds, b.window.toSeconds), seenFrom: round3(a.window.fromSeconds + TAINT_LOOP_SECONDS), why: a.because });
        if (a.notModelled !== undefined || b.notModelled !== undefined) misses.push(a.notModelled ?? b.notModelled ?? '');
        // Written in the very pass that swapped its zone to rate 0: the tainting loop may not have run before the swap.
        const pass = early.zoneStates.find((z) => z.zone === zoneOf(input.nodes, t.name) && z.evictionRatePerSecond === 0 && z.state !== 'FullDisruption' && Math.abs(z.atSeconds - (a.cause?.atSeconds ?? NaN)) < 0.01);
        if (pass) misses.push(`the monitor pass at which zone "${pass.zone}" turned ${pass.state} (rate 0) ended before the 100 ms tainting loop spent its token`);
      }
      const missResults = misses.map((miss): TaintResult => {
        const why = race ? `the tainting loop lost the informer-cache race, then ${miss}` : miss;
        return { scenario: scenario.name, race, window: null, seenFrom: null, why: group.length === 1 ? why : `${why} (one of ${group.length} detected together; which one is not known)` };
      });
      // A node's verdicts depend on its group's slots and its own earliest transition only.
      const chunkByOwnFrom = new Map<number, TaintResult[]>();
      for (const t of group) {
        const own = real(t);
        let chunk = chunkByOwnFrom.get(own.from);
        if (!chunk) {
          chunk = [];
          for (const slot of slots) {
            if (group.length === 1 || slot.window.toSeconds >= own.from) chunk.push({ scenario: scenario.name, race, window: group.length === 1 ? slot.window : windowOf(Math.max(slot.window.fromSeconds, own.from - TAINT_LOOP_SECONDS), slot.window.toSeconds), seenFrom: Math.max(slot.seenFrom, own.from), why: slot.why });
          }
          chunk.push(...missResults);
          chunkByOwnFrom.set(own.from, chunk);
        }
        pushChunk(t.name, chunk);
      }
    }
  }
  const taints: TaintForecast[] = [];
  const items: ForecastItem[] = [];
  const chunkIds = new Map<TaintResult[], number>();
  const summaries = new Map<string, { outcomes: ForecastOutcome[]; seenFrom: (number | null)[] }>();
  for (const t of detected) {
    const chunks = results.get(t.name) ?? [];
    const signature = chunks.map((c) => chunkIds.get(c) ?? (chunkIds.set(c, chunkIds.size), chunkIds.size - 1)).join(',');
    let summary = summaries.get(signature);
    if (!summary) summaries.set(signature, (summary = summarizeTaintResults(chunks.flat())));
    const outcomes = [...summary.outcomes];
    const seenFrom = [...summary.seenFrom];
    // A node only maybe detected (its fault may end first) is only maybe tainted.
    if (t.detection?.happens === 'maybe' && !outcomes.some((o) => o.window === null)) {
      outcomes.push({ window: null, when: 'its fault ends before it is marked NotReady' });
      seenFrom.push(null);
    }
    const happens = outcomes.every((o) => o.window !== null) ? 'always' : outcomes.every((o) => o.window === null) ? 'never' : 'maybe';
    const key = t.detection!.key;
    taints.push({ node: t.name, key, outcomes, seenFromSeconds: seenFrom });
    const cm = input.settings.controllerManager;
    items.push(item({
      event: 'no-execute-taint', node: t.name, taintKey: key, happens, window: hull(outcomes.flatMap((o) => (o.window ? [o.window] : []))), outcomes,
      mechanism: 'no-execute-taint',
      setting: `--node-eviction-rate ${cm.nodeEvictionRate}/s, --secondary-node-eviction-rate ${cm.secondaryNodeEvictionRate}/s, --unhealthy-zone-threshold ${cm.unhealthyZoneThreshold}, --large-cluster-size-threshold ${cm.largeClusterSizeThreshold}`,
      assumption: `its detection window; the pass grouping of simultaneous detections and the order in which waiting nodes get tokens are not known (every grouping replayed); the tainting loop sees the controller's own Ready write, or (a second outcome${key.endsWith('/not-ready') ? ', only for a node the controller itself marked Unknown' : ''}) it reads the node from its informer cache first and the taint comes at the next token, ${secondsText(Math.max(monitor, 1 / Math.max(cm.nodeEvictionRate, 1e-9)))} later (the informer-cache race)`,
      because: `${key}:NoExecute written at a token of zone "${zoneOf(input.nodes, t.name)}" (burst 1, one per 1 / rate s), states re-evaluated at the end of each monitor pass`,
    }));
  }
  return { taints, items, zoneNotes: [...zoneNotes] };
}

/**
 * One node's taint outcomes from every scenario's verdicts: the hull of the taints written as the pass saw them, the
 * hull of those the informer-cache race moves (when not the same window in the same scenario), and "never" with its
 * reasons. Per outcome, the soonest the taint can be written (null: never).
 */
function summarizeTaintResults(list: readonly TaintResult[]): { outcomes: ForecastOutcome[]; seenFrom: (number | null)[] } {
  const tainted = list.filter((r) => r.window !== null && !r.race);
  const untainted = list.filter((r) => r.window === null);
  const outcomes: ForecastOutcome[] = [];
  const seenFrom: (number | null)[] = [];
  // The informer-cache race moves a taint only when it was written in its detection's pass (or waits behind one that was).
  const taintedWindows = new Set(tainted.map((b) => windowKey(b.scenario, b.window)));
  const raced = list.filter((r) => r.window !== null && r.race && !taintedWindows.has(windowKey(r.scenario, r.window)));
  if (tainted.length > 0) {
    const groupings = untainted.length === 0 ? 'in every pass grouping' : `${listed([...new Set(tainted.map((r) => r.scenario))])}`;
    outcomes.push({ window: hull(tainted.map((r) => r.window as Window)), when: raced.length > 0 ? `the tainting loop sees the controller's own Ready write, ${groupings}` : groupings });
    seenFrom.push(minOf(tainted.map((r) => r.seenFrom as number)));
  }
  if (raced.length > 0) {
    outcomes.push({ window: hull(raced.map((r) => r.window as Window)), when: `the tainting loop lost the informer-cache race (it read a node detected in that pass from the controller's cache as still Ready, spent the zone's token and dropped it; the next monitor pass re-queued it for the next token), and ${listed([...new Set(raced.map((r) => r.scenario))])}` });
    seenFrom.push(minOf(raced.map((r) => r.seenFrom as number)));
  }
  if (untainted.length > 0) {
    outcomes.push({ window: null, when: listed([...new Set(untainted.map((r) => `${r.scenario}: ${r.why}`))]) });
    seenFrom.push(null);
  }
  return { outcomes, seenFrom };
}

/** The smallest of `values` without spreading them into a call (a cohort may hold thousands of slots). */
function minOf(values: readonly number[]): number {
  let min = Infinity;
  for (const v of values) if (v < min) min = v;
  return min;
}

/** One scenario's verdict on one node's taint: its window (null: not tainted), and whether the informer-cache race was replayed. */
interface TaintResult {
  scenario: string;
  race: boolean;
  window: Window | null;
  seenFrom: number | null;
  why: string;
}

/** A scenario's window as a set key: equal keys are equal windows (items.ts `sameWindow`) of the same scenario. */
function windowKey(scenario: string, window: Window | null): string {
  return `${scenario}\u0000${window?.fromSeconds ?? ''}\u0000${window?.toSeconds ?? ''}`;
}

/** At most three of `cases`, joined with "; or ", and how many more. */
function listed(cases: readonly string[]): string {
  return `${cases.slice(0, 3).join('; or ')}${cases.length > 3 ? ` (and ${cases.length - 3} more)` : ''}`;
}

const zoneCache = new WeakMap<readonly PreFaultNode[], Map<string, string>>();

/** The zone key of node `name` among the pre-fault nodes (`""` when unknown). */
/** The first `no-execute-taint` item of each node, by node name (what `items.find` gave, in one pass). */
function firstTaintItemByNode<T extends { node?: string; event: string }>(items: readonly T[]): Map<string, T> {
  const byNode = new Map<string, T>();
  for (const i of items) if (i.event === 'no-execute-taint' && i.node !== undefined && !byNode.has(i.node)) byNode.set(i.node, i);
  return byNode;
}

function zoneOf(nodes: readonly PreFaultNode[], name: string): string {
  let zones = zoneCache.get(nodes);
  if (!zones) zoneCache.set(nodes, (zones = new Map(nodes.map((n) => [n.name, zoneKeyOf(n.labels)]))));
  return zones.get(name) ?? '';
}

/** One line: a zone state a scenario passes through. */
function zoneNote(change: ZoneStateChange, scenario: string): string {
  return `zone "${change.zone}": ${change.state} with ${change.notReady} of ${change.total} NotReady (rate ${change.evictionRatePerSecond}/s) when ${scenario}`;
}

/**
 * The pass groupings replayed: cohorts are targets whose fault starts together; within a cohort, all in one pass;
 * one alone one pass before the rest; spread one per pass (up to as many passes as the window holds).
 */
function scenarios(detected: readonly TargetNodeForecast[], monitorSeconds: number): Scenario[] {
  const cohorts = new Map<number, TargetNodeForecast[]>();
  for (const t of detected) {
    const cohort = cohorts.get(t.offSeconds);
    if (cohort) cohort.push(t);
    else cohorts.set(t.offSeconds, [t]);
  }
  // The node that can be detected earliest goes first: its pass may come before the others' earliest detection.
  const groups = [...cohorts.values()].map((c) => [...c].sort((a, b) => a.detection!.window.fromSeconds - b.detection!.window.fromSeconds || a.name.localeCompare(b.name)));
  const passesIn = (c: TargetNodeForecast[]) => {
    const w = c[0].detection!.window;
    return Math.max(1, Math.min(c.length, Math.floor((w.toSeconds - w.fromSeconds - 2) / monitorSeconds) + 1));
  };
  const all = (assign: (c: TargetNodeForecast[], i: number) => number) => new Map(groups.flatMap((c) => c.map((t, i) => [t.name, assign(c, i)] as const)));
  const list: Scenario[] = [{ name: 'every simultaneous detection is in one monitor pass', passOf: all(() => 0) }];
  // Which node of a cohort is the one detected first, or in which pass, does not matter here: a cohort's nodes share
  // its slots (forecastTaints), so one node first stands for any node first.
  if (groups.some((c) => c.length > 1)) {
    list.push({ name: 'one node is detected one pass before the others', passOf: all((_, i) => (i === 0 ? 0 : 1)) });
    list.push({ name: 'the detections spread over the passes the detection window holds', passOf: all((c, i) => i % passesIn(c)) });
  }
  return list;
}

/**
 * The blind zone replay of one scenario: each target detected at its cohort's earliest (or latest) real transition
 * instant plus its pass offset (× the monitor period), Ready again at the earliest (latest) instant; every other node
 * healthy. Pods on a target are counted Ready until its detection (the controller's writes: clientThrottle).
 * `informerRace`: every in-pass unreachable taint is lost to the informer-cache race (informerRaceChoices).
 */
function replay(input: ZoneForecastInput, detected: readonly TargetNodeForecast[], scenario: Scenario, at: 'early' | 'late', informerRace: boolean) {
  const monitor = input.settings.controllerManager.nodeMonitorPeriodMs / 1000;
  const instants = new Map<string, number>();
  // Real transitions: lastTransitionTime truncated (−1 s) below, observation latency included above (Unknown).
  const real = (t: TargetNodeForecast) => {
    const d = t.detection!;
    return { from: d.window.fromSeconds + 1, to: d.status === 'Unknown' ? d.window.toSeconds - OBSERVATION_LATENCY_SECONDS : d.window.toSeconds };
  };
  const bases = new Map<number, number>();
  for (const off of new Set(detected.map((t) => t.offSeconds))) {
    const cohort = detected.filter((c) => c.offSeconds === off);
    // The earliest (latest) first pass that leaves no node of the cohort detected before (after) its own window: a
    // node detected one pass after the first is not held to the first pass's instant (zone-disruption-threshold-08 r0,
    // v1.37.2: two workers detected at 18.055 s, the third a pass later, whose last renewal put its own window from 18.1 s).
    const passOf = (c: TargetNodeForecast) => (scenario.passOf.get(c.name) ?? 0) * monitor;
    bases.set(off, at === 'early' ? Math.max(...cohort.map((c) => real(c).from - passOf(c))) : Math.min(...cohort.map((c) => real(c).to - passOf(c))));
  }
  for (const t of detected) {
    // A cohort's passes count from its earliest (or, late, end at its latest) transition; each node stays in its own window.
    const base = bases.get(t.offSeconds) as number;
    const pass = scenario.passOf.get(t.name) ?? 0;
    const own = real(t);
    instants.set(t.name, Math.min(own.to, Math.max(own.from, base + pass * monitor)));
  }
  const byName = new Map(detected.map((t) => [t.name, t]));
  const timelines = input.nodes.map((n) => syntheticTimeline(n, byName.get(n.name), instants.get(n.name) ?? null, at));
  const pods = input.pods.filter((p) => instants.has(p.node)).map((p) => ({ nodeBefore: p.node, notReadyReceivedAfterSeconds: instants.get(p.node) as number }));
  return predictNoExecuteTaints(input.settings, timelines, input.endSeconds, [], pods, informerRace ? informerRaceChoices : blindChoices);
}

/** A node timeline for the replay: only what it reads (zone, whether it counts, detection, Ready again, deletion). */
function syntheticTimeline(node: PreFaultNode, target: TargetNodeForecast | undefined, detectedAt: number | null, at: 'early' | 'late'): NodeTimeline {
  const detection = target?.detection ?? null;
  // The controller sees the node back no earlier than the restore's start: the Ready-again window's lower second is
  // lastTransitionTime's truncation, which the controller's own receipt of the post does not have.
  const earliestBack = target?.readyAgain ? Math.max(target.readyAgain.fromSeconds, target.restoreStart?.[0] ?? -Infinity) : null;
  const back = target?.readyAgain ? (at === 'early' ? earliestBack! : target.readyAgain.toSeconds + OBSERVATION_LATENCY_SECONDS) : null;
  return {
    name: node.name, faultTarget: target !== undefined, faultInjectedAfterSeconds: target?.offSeconds ?? null, lastLeaseRenewBeforeDetection: null,
    zone: zoneKeyOf(node.labels), countsForZoneState: !(EXCLUDE_DISRUPTION_LABEL in node.labels),
    notReadyStatus: detectedAt === null || detection === null ? null : detection.status, notReadyReason: null,
    notReadyAfterSeconds: detectedAt, notReadyReceivedAfterSeconds: detectedAt,
    readyAgainAfterSeconds: back, readyAgainReceivedAfterSeconds: back,
    taints: [], noExecuteTaintAfterSeconds: null, outOfServiceTaintAfterSeconds: null, noScheduleTaintAfterSeconds: null,
    internalIPBefore: null, internalIPAfter: null, internalIPChanged: false,
    deletedAfterSeconds: target?.deleted ? (at === 'early' ? target.deleted.fromSeconds : target.deleted.toSeconds) : null, recreatedAfterSeconds: null, readyAtEnd: true,
  };
}
