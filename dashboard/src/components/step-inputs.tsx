import { useEffect } from 'preact/hooks';
import { SCROLL_DIRECTIONS, type ScrollDirection } from '../api/types.js';
import type { StepDraft } from '../lib/instruction-steps.js';

interface Props {
  step: StepDraft;
  /** Prefix of the inputs' ids, unique per step. */
  id: string;
  onChange: (patch: Partial<StepDraft>) => void;
  /** Focus the step's first field once it is shown (a step just added). */
  focusOnMount?: boolean;
}

/** Suggestions only: press takes any key name Playwright knows, with modifiers. */
const KEYS = ['Enter', 'Tab', 'Escape', 'Space', 'ArrowDown', 'ArrowUp', 'PageDown', 'End'];

/** The inputs of one step, by kind; an opaque step's JSON, read-only, under `${id}-saved`. */
export function StepInputs({ step: s, id, onChange, focusOnMount }: Props) {
  useEffect(() => {
    if (!focusOnMount) return;
    // The fields are siblings of the step's kind select, known by their ids' prefix.
    const fields = ['input', 'select', 'textarea'].map((tag) => `${tag}[id^="${id}-"]`);
    const first = [...document.querySelectorAll<HTMLElement>(fields.join(', '))].find(
      (el) => el.id !== `${id}-kind`,
    );
    first?.focus();
  }, [focusOnMount, id]);
  const line = (
    field: 'selector' | 'text' | 'keyName',
    label: string,
    attrs: Record<string, unknown> = {},
  ) => (
    <span class="field">
      <label for={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        value={s[field]}
        onInput={(e) => onChange({ [field]: e.currentTarget.value })}
        {...attrs}
      />
    </span>
  );
  const num = (field: 'ms' | 'scrolls', label: string, min: number, max: number) => (
    <span class="field narrow">
      <label for={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        type="number"
        min={min}
        max={max}
        inputMode="numeric"
        value={s[field]}
        onInput={(e) => onChange({ [field]: e.currentTarget.value })}
      />
    </span>
  );
  const selector = (label = 'Selector', placeholder = '#search') =>
    line('selector', label, { placeholder, spellcheck: false });

  switch (s.kind) {
    case 'wait':
    case 'click':
      return selector();
    case 'delay':
      return num('ms', 'Milliseconds', 1, 120000);
    case 'fill':
      return (
        <>
          {selector()}
          {line('text', 'Text')}
          {num('ms', 'Key delay (ms)', 0, 120000)}
        </>
      );
    case 'press':
      return (
        <>
          {line('keyName', 'Key', { placeholder: 'Enter', list: `${id}-keys`, spellcheck: false })}
          <datalist id={`${id}-keys`}>
            {KEYS.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </>
      );
    case 'scroll':
      return (
        <>
          <span class="field narrow">
            <label for={`${id}-direction`}>Direction</label>
            <select
              id={`${id}-direction`}
              value={s.direction}
              onChange={(e) => onChange({ direction: e.currentTarget.value as ScrollDirection })}
            >
              {SCROLL_DIRECTIONS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </span>
          {selector('Selector (optional)', 'empty: the window')}
        </>
      );
    case 'evaluate':
      return (
        <span class="field wide">
          <label for={`${id}-script`}>Script</label>
          <textarea
            id={`${id}-script`}
            class="code"
            rows={3}
            spellcheck={false}
            placeholder="document.querySelector('#more')?.click()"
            value={s.script}
            onInput={(e) => onChange({ script: e.currentTarget.value })}
          />
        </span>
      );
    case 'infinite_scroll':
      return (
        <>
          {num('scrolls', 'Max scrolls', 1, 100)}
          {num('ms', 'Delay after each (ms)', 0, 10000)}
        </>
      );
    case 'opaque': {
      const json = JSON.stringify(s.raw, null, 2) ?? String(s.raw);
      return (
        <span class="field wide">
          <textarea
            id={`${id}-saved`}
            class="code"
            readOnly
            rows={Math.min(json.split('\n').length, 8)}
            spellcheck={false}
            value={json}
            aria-describedby={`${id}-saved-hint`}
          />
          <span id={`${id}-saved-hint`} class="muted small hint">
            Kept as saved: this dashboard cannot edit this step, only move or remove it.
          </span>
        </span>
      );
    }
  }
}
