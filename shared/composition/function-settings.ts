import type { AccessNeed, Capability } from '../platform/capability';
import { PLATFORM_SENDER, SESSION_SECRET, type SecretSetting, type Setting, type ValueSetting } from '../platform/settings';
import type { App } from './assemble';

/** A function the stacks deploy, as far as its settings go (function-entries.ts has the full spec). */
export interface SettingsSubject {
  kind: 'api' | 'consumer' | 'external-consumer' | 'queue' | 'jobs' | 'stream-dispatcher' | 'render';
  appFunction?: string;
}

const byName = (settings: Setting[]) => [...new Map(settings.map((s) => [s.name, s])).values()].sort((a, b) => a.name.localeCompare(b.name));

/** Settings implied by what a function may touch: the email port sends the platform's mail from the platform sender. */
const impliedByNeeds = (needs: readonly (AccessNeed | 'bus')[]): Setting[] => (needs.includes('email') ? [PLATFORM_SENDER] : []);

/** The capabilities whose operations an API group serves (its own, and providers riding on it). */
const groupCapabilities = (app: App, group: string): Capability[] =>
  app.capabilities.filter((c) => c.operations?.length && (c.apiFunction ?? c.name) === group);

/**
 * The settings one function is given: what its capabilities (or its consumer or queue) declare,
 * plus what the kernel's own code in it reads: a function with key-authenticated operations
 * verifies session tokens (shared/platform/auth.ts), and one with the `email` need sends from the
 * platform sender. `needs` is the function's access (for a job group, read from its code).
 */
export function deriveSettings(app: App, subject: SettingsSubject, needs: readonly (AccessNeed | 'bus')[]): Setting[] {
  const declared: Setting[] = [];
  switch (subject.kind) {
    case 'api': {
      const group = app.groups.find((g) => g.name === subject.appFunction);
      if (!group) throw new Error(`No API group ${subject.appFunction}`);
      for (const capability of groupCapabilities(app, group.name)) declared.push(...(capability.settings ?? []));
      if (group.operations.some((operation) => operation.auth === 'key')) declared.push(SESSION_SECRET);
      break;
    }
    case 'consumer':
      declared.push(...(app.consumers.find((c) => c.name === subject.appFunction)?.settings ?? []));
      break;
    case 'external-consumer':
      declared.push(...(app.externalConsumers.find((c) => c.name === subject.appFunction)?.settings ?? []));
      break;
    case 'queue':
      declared.push(...(app.queues.find((q) => q.name === subject.appFunction)?.settings ?? []));
      break;
    case 'jobs': {
      const group = app.jobGroups.find((g) => g.name === subject.appFunction);
      for (const capability of group?.capabilities ?? []) declared.push(...(capability.jobSettings ?? []));
      break;
    }
    default:
      break;
  }
  return byName([...declared, ...impliedByNeeds(needs)]);
}

export const secretsOf = (settings: Setting[]) => settings.filter((s): s is SecretSetting => s.kind === 'secret');
export const valuesOf = (settings: Setting[]) => settings.filter((s): s is ValueSetting => s.kind === 'value');

/** Every setting any function of the app may be given (the local runtime makes each of them). */
export function allSettings(app: App): Setting[] {
  const declared = app.capabilities.flatMap((c) => [
    ...(c.settings ?? []),
    ...(c.jobSettings ?? []),
    ...(c.consumers ?? []).flatMap((x) => x.settings ?? []),
    ...(c.externalConsumers ?? []).flatMap((x) => x.settings ?? []),
    ...(c.queues ?? []).flatMap((x) => x.settings ?? []),
  ]);
  const named = new Map<string, Setting>();
  for (const setting of [SESSION_SECRET, PLATFORM_SENDER, ...declared]) {
    const seen = named.get(setting.name);
    if (seen && seen !== setting) throw new Error(`Two settings are named ${setting.name}`);
    named.set(setting.name, setting);
  }
  return byName([...named.values()]);
}
