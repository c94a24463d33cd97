import { ensureDashboardBuilt } from '../../scripts/dashboard-build';

/** Browser project global setup: the dashboard pages need a current build in dashboard/dist. */
export default function setup() {
  ensureDashboardBuilt('if-stale');
}
