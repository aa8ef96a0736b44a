import { useState } from 'preact/hooks';
import { PROXY_TYPES, RESOURCE_TYPES, WAIT_UNTIL, type WaitUntil } from '../api/types.js';
import type { ConfigForm } from '../lib/config-form.js';
import type { FieldErrors } from '../lib/field-errors.js';
import { InstructionsEditor } from './instructions-editor.js';

interface Props {
  form: ConfigForm;
  onChange: (patch: Partial<ConfigForm>) => void;
  /** Prefix for element ids, so two forms could share a page. */
  idPrefix: string;
  /** Errors shown next to their fields (keys: scraper parameters, `output`). */
  errors?: FieldErrors;
}

type Output =
  | 'html'
  | 'markdown'
  | 'screenshot'
  | 'screenshot_full_page'
  | 'extract'
  | 'structured_data'
  | 'json'
  | 'summary'
  | 'change_tracking';
const OUTPUTS: { value: Output; label: string; browser: boolean }[] = [
  { value: 'html', label: 'HTML', browser: false },
  { value: 'markdown', label: 'Markdown', browser: false },
  { value: 'screenshot', label: 'Screenshot (visible area)', browser: true },
  { value: 'screenshot_full_page', label: 'Screenshot (full page)', browser: true },
  { value: 'extract', label: 'Fields (extraction rules)', browser: false },
  { value: 'structured_data', label: 'Structured data', browser: false },
  { value: 'json', label: 'JSON (language model)', browser: false },
  { value: 'summary', label: 'Summary (language model)', browser: false },
  { value: 'change_tracking', label: 'Changes since the previous scrape', browser: false },
];

/** What choosing the fields output starts from: a rule to edit. */
const EXAMPLE_RULES = '{\n  "title": "h1"\n}';

/** What choosing the model's JSON output starts from: a question to edit. */
const EXAMPLE_PROMPT = 'The title of the page';

function outputOf(form: ConfigForm): Output {
  // before json: its prompt and schema are then the change comparison's questions
  if (form.change_tracking) return 'change_tracking';
  if (form.summary) return 'summary';
  if (form.json_schema.trim() !== '' || form.json_prompt.trim() !== '') return 'json';
  if (form.structured_data) return 'structured_data';
  if (form.extract_rules.trim() !== '') return 'extract';
  if (form.screenshot_full_page) return 'screenshot_full_page';
  if (form.screenshot) return 'screenshot';
  if (form.markdown) return 'markdown';
  return 'html';
}

/** Why render went on by itself, for the note beside the switch. */
const NEEDS_BROWSER: Record<string, string> = {
  screenshot: 'screenshots need a browser',
  screenshot_full_page: 'screenshots need a browser',
  block_resources: 'blocking resource types needs a browser',
  instructions: 'instructions run in a browser',
  window_width: 'the window size applies to a browser',
  window_height: 'the window size applies to a browser',
  wait_until: 'waiting for a load state needs a browser',
};

const WAIT_UNTIL_TEXT: Record<WaitUntil, string> = {
  settled: "the page's own requests and timers done, its content still",
  load: 'every resource loaded',
  domcontentloaded: 'the document parsed',
  networkidle: 'no request for 500 ms',
};

type BoolField = 'render' | 'block_ads' | 'block_cookie_banners' | 'block_chat_widgets';

/** Every scraper parameter a workflow config (or a playground request) can carry. */
export function ConfigFields({ form, onChange: change, idPrefix: p, errors = {} }: Props) {
  const [autoRender, setAutoRender] = useState<string | null>(null);
  /** A browser-only option given a value switches render on, and says so. */
  const onChange = (patch: Partial<ConfigForm>) => {
    const browserField = Object.keys(patch).find((k) => {
      const v = (patch as Record<string, unknown>)[k];
      return k in NEEDS_BROWSER && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0);
    });
    if (browserField && !form.render && patch.render === undefined) {
      setAutoRender(NEEDS_BROWSER[browserField] ?? null);
      change({ ...patch, render: true });
      return;
    }
    if (patch.render !== undefined) setAutoRender(null);
    change(patch);
  };
  const err = (field: string) =>
    errors[field] ? (
      <p id={`${p}-${field}-error`} class="field-error" data-testid={`error-${field}`}>
        {errors[field]}
      </p>
    ) : null;
  const invalid = (field: string) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${p}-${field}-error` } : {};
  const output = outputOf(form);
  /** A labelled text box of the form, with its error. */
  const textBox = (
    field: 'extract_rules' | 'json_prompt' | 'json_schema',
    label: string,
    rows: number,
  ) => (
    <div class="field">
      <label for={`${p}-${field}`}>{label}</label>
      <textarea
        id={`${p}-${field}`}
        rows={rows}
        {...(field === 'json_prompt' ? {} : { spellcheck: false })}
        value={form[field]}
        onInput={(e) => onChange({ [field]: e.currentTarget.value })}
        {...invalid(field)}
      />
      {err(field)}
    </div>
  );
  const check = (field: BoolField, label: string) => (
    <label class="check" for={`${p}-${field}`}>
      <input
        id={`${p}-${field}`}
        type="checkbox"
        checked={form[field]}
        onChange={(e) => onChange({ [field]: e.currentTarget.checked })}
      />
      {label}
    </label>
  );
  const text = (
    field: 'url' | 'webhook_url' | 'proxy_country',
    label: string,
    attrs: Record<string, unknown> = {},
  ) => (
    <div class="field">
      <label for={`${p}-${field}`}>{label}</label>
      <input
        id={`${p}-${field}`}
        value={form[field]}
        onInput={(e) => onChange({ [field]: e.currentTarget.value })}
        {...attrs}
        {...invalid(field)}
      />
      {err(field)}
    </div>
  );
  const num = (
    field: 'window_width' | 'window_height' | 'timeout',
    label: string,
    min: number,
    max: number,
    ph: string,
  ) => (
    <div class="field narrow">
      <label for={`${p}-${field}`}>{label}</label>
      <input
        id={`${p}-${field}`}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        placeholder={ph}
        value={form[field]}
        onInput={(e) => onChange({ [field]: e.currentTarget.value })}
        {...invalid(field)}
      />
      {err(field)}
    </div>
  );

  return (
    <>
      {text('url', 'Target URL', {
        type: 'url',
        required: true,
        placeholder: 'https://example.com/',
        spellcheck: false,
      })}
      <fieldset>
        <legend>Rendering</legend>
        {check('render', 'Render in a browser (JavaScript, screenshots, instructions)')}
        {autoRender && form.render && (
          <p class="note small" role="status" data-testid="render-note">
            Render switched on: {autoRender}.
          </p>
        )}
        <div class="row wrap">
          {num('window_width', 'Window width', 320, 3840, '1920')}
          {num('window_height', 'Window height', 240, 2160, '1080')}
          {num('timeout', 'Timeout (ms)', 1000, 120000, '60000')}
        </div>
        <div class="field">
          <label for={`${p}-wait_until`}>Wait until (needs render)</label>
          <p id={`${p}-wait_until-hint`} class="muted small hint">
            When the page counts as loaded, before instructions run.
          </p>
          <select
            id={`${p}-wait_until`}
            aria-describedby={`${p}-wait_until-hint`}
            value={form.wait_until}
            onChange={(e) =>
              onChange({ wait_until: e.currentTarget.value as ConfigForm['wait_until'] })
            }
          >
            <option value="">default (settled)</option>
            {WAIT_UNTIL.map((w) => (
              <option key={w} value={w}>
                {w}: {WAIT_UNTIL_TEXT[w]}
              </option>
            ))}
          </select>
          {err('wait_until')}
        </div>
      </fieldset>
      <fieldset class="choice">
        <legend>Output</legend>
        <div class="segmented wrap" data-testid="output-choice">
          {OUTPUTS.map((o) => (
            <label key={o.value} class={output === o.value ? 'on' : ''} for={`${p}-out-${o.value}`}>
              <input
                id={`${p}-out-${o.value}`}
                type="radio"
                name={`${p}-output`}
                value={o.value}
                checked={output === o.value}
                onChange={() =>
                  onChange({
                    markdown: o.value === 'markdown',
                    screenshot: o.value === 'screenshot',
                    screenshot_full_page: o.value === 'screenshot_full_page',
                    structured_data: o.value === 'structured_data',
                    extract_rules: o.value === 'extract' ? form.extract_rules || EXAMPLE_RULES : '',
                    summary: o.value === 'summary',
                    change_tracking: o.value === 'change_tracking',
                    // change tracking's questions are opt-in (each costs model calls): it
                    // starts without any
                    json_schema: o.value === 'json' ? form.json_schema : '',
                    json_prompt:
                      o.value === 'json'
                        ? form.json_prompt || (form.json_schema ? '' : EXAMPLE_PROMPT)
                        : '',
                  })
                }
              />
              {o.label}
            </label>
          ))}
        </div>
        {err('output')}
        {output === 'extract' &&
          textBox('extract_rules', 'Extraction rules (JSON: field → CSS selector)', 5)}
        {output === 'json' && (
          <>
            {textBox('json_prompt', 'What to extract (prompt for the language model)', 2)}
            {textBox('json_schema', 'JSON schema of the answer (optional)', 5)}
          </>
        )}
        {output === 'change_tracking' && (
          <>
            {textBox(
              'json_prompt',
              'Fields to compare (prompt for the language model, optional: asked only when the page changed)',
              2,
            )}
            {textBox('json_schema', 'JSON schema of the compared fields (optional)', 5)}
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>Blocking</legend>
        {check('block_ads', 'Block ads')}
        {check('block_cookie_banners', 'Block cookie banners')}
        {check('block_chat_widgets', 'Block chat widgets')}
        <fieldset class="field bare">
          <legend class="label">Block resource types (needs render)</legend>
          <div class="chips" data-testid="resource-chips">
            {RESOURCE_TYPES.map((t) => {
              const on = form.block_resources.includes(t);
              return (
                <button
                  key={t}
                  type="button"
                  class={`chip${on ? ' on' : ''}`}
                  aria-pressed={on}
                  onClick={() =>
                    onChange({
                      // Always in the API's order, whatever order they were ticked in.
                      block_resources: RESOURCE_TYPES.filter((r) =>
                        r === t ? !on : form.block_resources.includes(r),
                      ),
                    })
                  }
                >
                  {t}
                </button>
              );
            })}
          </div>
          {err('block_resources')}
        </fieldset>
      </fieldset>
      <fieldset>
        <legend>Proxy</legend>
        <div class="row wrap">
          <div class="field">
            <label for={`${p}-proxy_type`}>Proxy type</label>
            <select
              id={`${p}-proxy_type`}
              value={form.proxy_type}
              onChange={(e) =>
                onChange({ proxy_type: e.currentTarget.value as ConfigForm['proxy_type'] })
              }
            >
              <option value="">default (datacenter)</option>
              {PROXY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            {err('proxy_type')}
          </div>
          {text('proxy_country', 'Proxy country', {
            maxLength: 2,
            placeholder: 'DE',
            class: 'narrow-input',
            autoComplete: 'off',
          })}
        </div>
      </fieldset>
      <fieldset>
        <legend>Delivery</legend>
        {text('webhook_url', 'Webhook URL (results are sent there instead of returned)', {
          type: 'url',
          placeholder: 'https://hooks.example.com/pagegrab',
          spellcheck: false,
        })}
      </fieldset>
      <InstructionsEditor
        steps={form.instructions}
        onChange={(instructions) => onChange({ instructions })}
      />
      {err('instructions')}
    </>
  );
}
