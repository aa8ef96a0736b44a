import { newStep, type StepDraft, type StepKind } from '../lib/config-form.js';

const KINDS: readonly StepKind[] = ['wait', 'fill', 'click', 'delay'];
const HINT: Record<StepKind, string> = {
  wait: 'Wait for a selector to appear',
  fill: 'Type text into an input',
  click: 'Click an element',
  delay: 'Pause',
};

interface Props {
  steps: StepDraft[];
  onChange: (steps: StepDraft[]) => void;
}

/** Browser steps run in order; each can be changed, moved up or down, or removed. */
export function InstructionsEditor({ steps, onChange }: Props) {
  const update = (key: number, patch: Partial<StepDraft>) =>
    onChange(steps.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...steps];
    const [step] = next.splice(i, 1);
    if (step) next.splice(i + by, 0, step);
    onChange(next);
  };

  return (
    <fieldset class="instructions" data-testid="instructions-editor">
      <legend>Instructions</legend>
      <p class="muted small">Run in order after the page loads. Needs render.</p>
      {steps.length > 0 && (
        <ol class="steps">
          {steps.map((s, i) => {
            const n = i + 1;
            const id = `step-${s.key}`;
            return (
              <li key={s.key} class="step" data-testid="instruction-step">
                <div class="step-fields">
                  <label for={`${id}-kind`}>Step {n}</label>
                  <select
                    id={`${id}-kind`}
                    value={s.kind}
                    title={HINT[s.kind]}
                    onChange={(e) => update(s.key, { kind: e.currentTarget.value as StepKind })}
                  >
                    {KINDS.map((k) => (
                      <option key={k} value={k}>
                        {k}
                      </option>
                    ))}
                  </select>
                  {s.kind !== 'delay' && (
                    <span class="field">
                      <label for={`${id}-selector`}>Selector</label>
                      <input
                        id={`${id}-selector`}
                        value={s.selector}
                        placeholder="#search"
                        onInput={(e) => update(s.key, { selector: e.currentTarget.value })}
                      />
                    </span>
                  )}
                  {s.kind === 'fill' && (
                    <span class="field">
                      <label for={`${id}-text`}>Text</label>
                      <input
                        id={`${id}-text`}
                        value={s.text}
                        onInput={(e) => update(s.key, { text: e.currentTarget.value })}
                      />
                    </span>
                  )}
                  {(s.kind === 'delay' || s.kind === 'fill') && (
                    <span class="field narrow">
                      <label for={`${id}-ms`}>
                        {s.kind === 'delay' ? 'Milliseconds' : 'Key delay (ms)'}
                      </label>
                      <input
                        id={`${id}-ms`}
                        type="number"
                        min={s.kind === 'delay' ? 1 : 0}
                        inputMode="numeric"
                        value={s.ms}
                        onInput={(e) => update(s.key, { ms: e.currentTarget.value })}
                      />
                    </span>
                  )}
                </div>
                <div class="step-actions">
                  <button
                    type="button"
                    aria-label={`Move step ${n} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move step ${n} down`}
                    disabled={i === steps.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    aria-label={`Remove step ${n}`}
                    onClick={() => onChange(steps.filter((x) => x.key !== s.key))}
                  >
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <div class="row wrap">
        {KINDS.map((k) => (
          <button key={k} type="button" onClick={() => onChange([...steps, newStep(k)])}>
            Add {k}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
