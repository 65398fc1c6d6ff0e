import fs from 'node:fs';
import path from 'node:path';

/** The Grafana dashboards the Helm chart ships (charts/video-platform/dashboards). */
export const DASHBOARDS_DIR = path.resolve(__dirname, '../../../../../charts/video-platform/dashboards');

export interface DashboardTarget {
  refId: string;
  datasource: { type: string; uid: string };
  editorType: string;
  format: number;
  rawSql: string;
}
export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource: { type: string; uid: string };
  targets: DashboardTarget[];
}
export interface DashboardVariable {
  name: string;
  type: 'datasource' | 'query' | 'custom';
  query: string;
  allValue?: string;
  includeAll?: boolean;
  options?: { text: string; value: string }[];
  current: { text: string; value: string };
}
export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  templating: { list: DashboardVariable[] };
  panels: DashboardPanel[];
}

export function loadDashboards(): { file: string; dashboard: Dashboard }[] {
  return fs
    .readdirSync(DASHBOARDS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, dashboard: JSON.parse(fs.readFileSync(path.join(DASHBOARDS_DIR, file), 'utf8')) as Dashboard }));
}
