import { useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Workflow } from '../api/types.js';
import {
  type ConfigForm,
  configPatch,
  configToForm,
  emptyForm,
  formToConfig,
} from '../lib/config-form.js';
import { href } from '../lib/route.js';
import { ConfigFields } from './config-fields.js';

interface Props {
  client: ApiClient;
  /** Absent: a create form. Present: edit that workflow (name and config as a merge patch). */
  workflow?: Workflow;
  onSaved: (w: Workflow) => void;
}

export function WorkflowForm({ client, workflow, onSaved }: Props) {
  const [name, setName] = useState(workflow?.name ?? '');
  const [form, setForm] = useState<ConfigForm>(() =>
    workflow ? configToForm(workflow.config) : emptyForm(),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editing = workflow !== undefined;

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const config = formToConfig(form);
      let saved: Workflow;
      if (!workflow) {
        saved = await client.createWorkflow(name, config);
      } else {
        const patch: { name?: string; config?: Record<string, unknown> } = {};
        if (name !== workflow.name) patch.name = name;
        const cfg = configPatch(workflow.config, config);
        if (cfg) patch.config = cfg;
        saved =
          Object.keys(patch).length > 0 ? await client.editWorkflow(workflow.id, patch) : workflow;
      }
      onSaved(saved);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const title = editing ? `Edit ${workflow.name}` : 'New workflow';
  return (
    <section aria-labelledby="form-title">
      <h1 id="form-title">{title}</h1>
      <form class="config-form" onSubmit={submit} data-testid="workflow-form" noValidate>
        <div class="form-body">
          <div class="field">
            <label for="wf-name">Name</label>
            <input
              id="wf-name"
              value={name}
              maxLength={100}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </div>
          <ConfigFields
            form={form}
            idPrefix="wf"
            onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
          />
        </div>
        <aside class="form-side">
          <div class="sticky">
            {error && (
              <p class="error" role="alert" data-testid="form-error">
                {error}
              </p>
            )}
            <div class="row wrap actions">
              <button type="submit" class="primary" disabled={busy}>
                {busy ? 'Saving…' : editing ? 'Save changes' : 'Create workflow'}
              </button>
              <a class="button" href={workflow ? href.workflow(workflow.id) : href.list()}>
                Cancel
              </a>
            </div>
          </div>
        </aside>
      </form>
    </section>
  );
}
