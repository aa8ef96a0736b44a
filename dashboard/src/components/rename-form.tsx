import { useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Workflow } from '../api/types.js';

interface Props {
  client: ApiClient;
  workflow: Workflow;
  onRenamed: (w: Workflow) => void;
}

/** Rename through PATCH /api/workflow/{id}: a name-only edit, kept apart from the full form. */
export function RenameForm({ client, workflow, onRenamed }: Props) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(workflow.name);
  const [error, setError] = useState<string | null>(null);

  if (!open)
    return (
      <button
        type="button"
        class="link"
        onClick={() => {
          setName(workflow.name);
          setOpen(true);
        }}
      >
        Rename
      </button>
    );

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      onRenamed(await client.renameWorkflow(workflow.id, name));
      setOpen(false);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form class="row wrap rename" onSubmit={submit} data-testid="rename-form">
      <div class="field">
        <label for="rename-name">New name</label>
        <input id="rename-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <button type="submit" class="primary">
        Save name
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
