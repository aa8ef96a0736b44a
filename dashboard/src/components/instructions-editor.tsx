import { useState } from 'preact/hooks';
import { newStep, STEP_KINDS, type StepDraft, type StepKind } from '../lib/instruction-steps.js';
import { StepInputs } from './step-inputs.js';

const NAME: Record<StepKind, string> = {
  wait: 'wait',
  fill: 'fill',
  click: 'click',
  delay: 'delay',
  press: 'press',
  scroll: 'scroll',
  evaluate: 'evaluate',
  infinite_scroll: 'infinite scroll',
};
const HINT: Record<StepKind, string> = {
  wait: 'Wait for a selector to appear',
  fill: 'Type text into an input',
  click: 'Click an element',
  delay: 'Pause',
  press: 'Press a key in the focused element',
  scroll: 'Scroll the window or an element by one screen',
  evaluate: 'Run JavaScript in the page',
  infinite_scroll: 'Scroll to the bottom until the page stops growing',
};

interface Props {
  steps: StepDraft[];
  onChange: (steps: StepDraft[]) => void;
}

/** Browser steps run in order; each can be changed, moved up or down, or removed. */
export function InstructionsEditor({ steps, onChange }: Props) {
  // The step just added takes focus, so typing after "Add wait" goes into its input.
  const [added, setAdded] = useState<number | null>(null);
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
              <li key={s.key} class="step" data-testid="instruction-step" data-kind={s.kind}>
                <div class="step-fields">
                  <label for={`${id}-${s.kind === 'opaque' ? 'saved' : 'kind'}`}>Step {n}</label>
                  {s.kind !== 'opaque' && (
                    <select
                      id={`${id}-kind`}
                      value={s.kind}
                      title={HINT[s.kind]}
                      onChange={(e) => update(s.key, { kind: e.currentTarget.value as StepKind })}
                    >
                      {STEP_KINDS.map((k) => (
                        <option key={k} value={k}>
                          {NAME[k]}
                        </option>
                      ))}
                    </select>
                  )}
                  <StepInputs
                    step={s}
                    id={id}
                    focusOnMount={s.key === added}
                    onChange={(patch) => update(s.key, patch)}
                  />
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
        {STEP_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            title={HINT[k]}
            onClick={() => {
              const step = newStep(k);
              setAdded(step.key);
              onChange([...steps, step]);
            }}
          >
            Add {NAME[k]}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
