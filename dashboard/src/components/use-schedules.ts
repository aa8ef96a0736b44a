import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import { listSchedules, type Schedule } from '../api/schedule-client.js';

/** The account's schedules by workflow id, loaded when the list shows (errors leave it empty). */
export function useSchedules(client: ApiClient | undefined): Map<string, Schedule> {
  const [byId, setById] = useState(new Map<string, Schedule>());
  const load = useCallback(async () => {
    if (!client) return;
    try {
      const all = await listSchedules(client);
      setById(new Map(all.map((s) => [s.workflowId, s])));
    } catch {
      // The list still shows without its schedule columns.
    }
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);
  return byId;
}
