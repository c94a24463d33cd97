/**
 * Builds the dashboard (dashboard/ → dashboard/dist) with Vite. `--if-missing` builds only when no
 * build exists (`npm start`); `--if-stale` only when a source is newer than the build (the browser
 * tests' global setup). Without a flag it always builds (`npm run dashboard:build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DASHBOARD = join(ROOT, 'dashboard');
const BUILT = join(DASHBOARD, 'dist', 'index.html');

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function dashboardIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const sources = ['src', 'index.html', 'vite.config.ts', 'public'].map((p) => join(DASHBOARD, p)).filter(existsSync);
  return Math.max(...sources.map(newest), statSync(join(ROOT, 'package-lock.json')).mtimeMs) > statSync(BUILT).mtimeMs;
}

export function buildDashboard(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(DASHBOARD, 'vite.config.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`dashboard build failed (exit ${result.status})`);
}

export function ensureDashboardBuilt(when: 'always' | 'if-missing' | 'if-stale'): boolean {
  if (when === 'if-missing' && existsSync(BUILT)) return false;
  if (when === 'if-stale' && !dashboardIsStale()) return false;
  buildDashboard();
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flag = process.argv[2];
  ensureDashboardBuilt(flag === '--if-missing' ? 'if-missing' : flag === '--if-stale' ? 'if-stale' : 'always');
}
