/** Names are at most this long; a copy suffix never pushes a name past it. */
export const MAX_NAME_LENGTH = 200;

const COPY_SUFFIX = /\s*\(copy(?: (\d+))?\)$/i;

/** "Ebook (copy 3)" -> "Ebook": copying a copy numbers it from the original name, not "(copy) (copy)". */
export function baseName(name: string): string {
  const base = name.replace(COPY_SUFFIX, '').trim();
  return base || name.trim();
}

/**
 * The name of a copy: "<base> (copy)", then "<base> (copy 2)", "(copy 3)"... the first one no
 * record in the target mode already carries (compared without case or outer spaces).
 */
export function copyName(name: string, takenNames: Iterable<string>): string {
  const taken = new Set<string>();
  for (const n of takenNames) taken.add(n.trim().toLowerCase());
  const base = baseName(name);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const candidate = base.slice(0, MAX_NAME_LENGTH - suffix.length).trimEnd() + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
