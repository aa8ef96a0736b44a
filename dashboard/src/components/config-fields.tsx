import {
  PROXY_TYPES,
  RESOURCE_TYPES,
  type ResourceType,
  WAIT_UNTIL,
  type WaitUntil,
} from '../api/types.js';
import type { ConfigForm } from '../lib/config-form.js';
import { InstructionsEditor } from './instructions-editor.js';

interface Props {
  form: ConfigForm;
  onChange: (patch: Partial<ConfigForm>) => void;
  /** Prefix for element ids, so two forms could share a page. */
  idPrefix: string;
}

const WAIT_UNTIL_TEXT: Record<WaitUntil, string> = {
  load: 'every resource loaded',
  domcontentloaded: 'the document parsed',
  networkidle: 'no request for 500 ms',
};

type BoolField =
  | 'render'
  | 'screenshot'
  | 'screenshot_full_page'
  | 'markdown'
  | 'block_ads'
  | 'block_cookie_banners'
  | 'block_chat_widgets';

/** Every scraper parameter a workflow config (or a playground request) can carry. */
export function ConfigFields({ form, onChange, idPrefix: p }: Props) {
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
      />
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
      />
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
            <option value="">default (load)</option>
            {WAIT_UNTIL.map((w) => (
              <option key={w} value={w}>
                {w}: {WAIT_UNTIL_TEXT[w]}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
      <fieldset>
        <legend>Output</legend>
        <p class="muted small">HTML unless one of these is chosen; only one output per request.</p>
        {check('markdown', 'Markdown')}
        {check('screenshot', 'Screenshot (visible area)')}
        {check('screenshot_full_page', 'Screenshot (full page)')}
      </fieldset>
      <fieldset>
        <legend>Blocking</legend>
        {check('block_ads', 'Block ads')}
        {check('block_cookie_banners', 'Block cookie banners')}
        {check('block_chat_widgets', 'Block chat widgets')}
        <div class="field">
          <label for={`${p}-block_resources`}>Block resource types (needs render)</label>
          <p id={`${p}-block_resources-hint`} class="muted small hint">
            Ctrl-click (⌘-click) or Shift+arrows to choose several; none selected blocks nothing.
          </p>
          <select
            id={`${p}-block_resources`}
            aria-describedby={`${p}-block_resources-hint`}
            multiple
            size={RESOURCE_TYPES.length}
            onChange={(e) =>
              onChange({
                block_resources: Array.from(
                  e.currentTarget.selectedOptions,
                  (o) => o.value as ResourceType,
                ),
              })
            }
          >
            {RESOURCE_TYPES.map((t) => (
              <option key={t} value={t} selected={form.block_resources.includes(t)}>
                {t}
              </option>
            ))}
          </select>
        </div>
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
    </>
  );
}
