// Provider name → factory (kube-burner's measurement factory, Playwright's reporter registry): the
// runner and CLI get a provider by name and never import an implementation directly.
import { InputError } from '../common/errors.js';
import type { ClusterProvider, ProviderName } from './provider.js';
import { createKindProvider, type KindProviderOptions } from './kind/index.js';
import { createKwokProvider } from './kwok/index.js';
import { createExistingProvider } from './existing/index.js';

/** Options every provider factory accepts. */
export type ProviderOptions = KindProviderOptions;

/** Makes a provider. */
export type ProviderFactory = (options: ProviderOptions) => ClusterProvider;

const factories = new Map<ProviderName, ProviderFactory>([
  ['kind', createKindProvider],
  ['kwok', (options) => createKwokProvider({ clusterDir: undefined, env: options.env, createTimeoutMs: options.createTimeoutMs })],
  ['existing', (options) => createExistingProvider({ env: options.env })],
]);

/** Registers (or replaces) the factory of a provider, e.g. kwok from lib/cluster/kwok. */
export function registerProvider(name: ProviderName, factory: ProviderFactory): void {
  factories.set(name, factory);
}

/** Names of the registered providers. */
export function providerNames(): ProviderName[] {
  return [...factories.keys()];
}

/** The provider called `name`. @throws InputError for an unregistered name, listing the known ones. */
export function getProvider(name: ProviderName, options: ProviderOptions = {}): ClusterProvider {
  const factory = factories.get(name);
  if (!factory) throw new InputError(`cluster provider ${name} is not available; known: ${providerNames().join(', ')}`);
  return factory(options);
}
