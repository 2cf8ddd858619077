// Public API of the observer: informers → journal (observations.jsonl), and the journal reader.
export type { ForecastObservation, GapObservation, ObjectObservation, Observation, ObservationBase, ObservationVerb, PhaseName, PhaseObservation, ProbeObservation, ProbeOutcome, WatchedKind } from './types.js';
export { HOST_LOAD_INTERVAL_MS, HOST_LOAD_PHASE, sampleHostLoad, type HostLoadSample } from './host-load.js';
export { startProber, type Prober, type ProberOptions, type ProbeResult } from './prober.js';
export { queryDnsOnce, encodeDnsQuery, decodeDnsHeader, type DnsServer, type DnsQueryResult } from './dns-query.js';
export { openJournal, parseJournal, readJournal, type Journal, type LogFn, type NewObservation, type OpenJournalOptions, type SkippedJournalLine } from './journal.js';
export { startObserver, DEFAULT_SYNC_TIMEOUT_MS, type Observer, type ObserverOptions } from './observer.js';
export { makeSources, NODE_LEASE_NAMESPACE, type SourceOptions, type WatchSource } from './sources.js';
export type { RawList, RawObject } from './raw-types.js';
export { watchSource, RESTART_BASE_DELAY_MS, RESTART_MAX_DELAY_MS, type InformerFactory, type InformerLike, type SourceWatch, type WatchSourceOptions } from './watcher.js';
