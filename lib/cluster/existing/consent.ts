// The contexts this process may inject faults on, granted by the command line (`--allow-faults-on <context>`).
// The existing provider refuses to attach to any other context, so no path into it (a YAML run, a scripted
// experiment, the library) touches a cluster rebootlab does not own without that consent. No dependencies: the CLI
// loads it before the Kubernetes client.

const allowed = new Set<string>();

/** Grants consent for faults on kubeconfig context `context` for the rest of this process. */
export function allowFaultsOn(context: string): void {
  allowed.add(context);
}

/** Whether {@link allowFaultsOn} granted `context`. */
export function faultsAllowedOn(context: string): boolean {
  return allowed.has(context);
}
