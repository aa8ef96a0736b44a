import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Workflow } from '../api/types.js';

export interface WorkflowStore {
  /** All of the account's workflows, newest first; null until the first load. */
  list: Workflow[] | null;
  error: string | null;
  reload: () => Promise<void>;
  /** Puts a workflow the API just answered into the list without waiting for a reload. */
  upsert: (w: Workflow) => void;
}

const newestFirst = (a: Workflow, b: Workflow) => b.createdAt.localeCompare(a.createdAt);

/**
 * One list for both tabs: the API has no "get one workflow" route, so the detail and edit
 * views read from the same list, and archive/unarchive move an entry between tabs at once.
 */
export function useWorkflows(client: ApiClient): WorkflowStore {
  const [list, setList] = useState<Workflow[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setList(await client.listWorkflows());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const upsert = useCallback((w: Workflow) => {
    setList((old) => {
      const rest = (old ?? []).filter((o) => o.id !== w.id);
      return [w, ...rest].sort(newestFirst);
    });
  }, []);

  return { list, error, reload, upsert };
}
