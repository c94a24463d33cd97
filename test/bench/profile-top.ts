/**
 * The top self-time frames of a V8 CPU profile (`node --cpu-prof`), grouped by function and file,
 * and the share of time under each package: `npx tsx test/bench/profile-top.ts <file> [rows]`.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const rows = Number(process.argv[3] ?? 25);
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFrame = new Map<string, number>();
const byPackage = new Map<string, number>();
const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '~/')
    .replace(/.*wt-[^/]+\//, '');
const packageOf = (url: string) => {
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith('node:')) return 'node:*';
  if (!url) return '(native/gc/idle)';
  return short(url).split('/').slice(0, 2).join('/');
};
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  if (!t) continue;
  const frame = `${node.callFrame.functionName || '(anonymous)'} ${short(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  byFrame.set(frame, (byFrame.get(frame) ?? 0) + t);
  const pkg = packageOf(node.callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1)}%`;
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
console.table(
  [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([frame, t]) => ({ self: pct(t), frame })),
);
console.table(
  [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([pkg, t]) => ({ self: pct(t), package: pkg })),
);
