import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Account, ApiKeyInfo, NewApiKey } from '../api/types.js';
import { formatTime } from '../lib/format.js';
import { scrollable } from '../lib/scrollable.js';
import { NODE_SNIPPET, PYTHON_SNIPPET } from '../lib/webhook-snippet.js';
import { CopyButton } from './copy-button.js';

interface Props {
  client: ApiClient;
  account: Account | null;
}

/**
 * The account's API keys (name, prefix, age, last use; add, rename, rotate, revoke) and the
 * webhook signing secret (reveal, rotate, a verification snippet). A new key is shown once,
 * here, and never again: focus moves to it, so a keyboard or screen reader user lands on it.
 */
export function KeysView({ client, account }: Props) {
  const [keys, setKeys] = useState<ApiKeyInfo[] | null>(null);
  const [fresh, setFresh] = useState<NewApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const freshBox = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    try {
      setKeys(await client.keys());
    } catch (err) {
      setError(errorText(err));
    }
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (fresh) freshBox.current?.focus();
  }, [fresh]);

  const act = async (work: () => Promise<NewApiKey | unknown>) => {
    setBusy(true);
    setError(null);
    setConfirming(null);
    setRenaming(null);
    try {
      const made = await work();
      if (made && typeof made === 'object' && 'key' in made) setFresh(made as NewApiKey);
      await load();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="keys-title" data-testid="keys-view">
      <h1 id="keys-title">API keys</h1>
      <p class="muted">
        Keys of {account ? <strong>{account.name}</strong> : 'this account'}. The service keeps only
        a hash of each key: a key is shown once, when it is made.
      </p>
      {fresh && (
        <div
          class="notice key-once"
          role="status"
          data-testid="new-key"
          tabIndex={-1}
          ref={freshBox}
          aria-label="Your new key"
        >
          <p>
            <strong>Your new key.</strong> Copy it now: it will not be shown again.
          </p>
          <div class="row wrap">
            <code class="secret mono" data-testid="new-key-value">
              {fresh.key}
            </code>
            <CopyButton text={fresh.key} label="Copy key" />
            <button type="button" onClick={() => setFresh(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {error && (
        <p class="error" role="alert" data-testid="keys-error">
          {error}
        </p>
      )}
      <div class="card">
        <div class="row spread wrap">
          <h2>Keys</h2>
          <form
            class="row wrap"
            data-testid="key-create"
            onSubmit={(e) => {
              e.preventDefault();
              void act(async () => {
                const made = await client.createKey(newName.trim() || undefined);
                setNewName('');
                return made;
              });
            }}
          >
            <label>
              Name (optional)
              <input
                name="key-name"
                value={newName}
                maxLength={100}
                placeholder="e.g. CI runner"
                onInput={(e) => setNewName(e.currentTarget.value)}
              />
            </label>
            <button type="submit" class="primary" disabled={busy}>
              Create a key
            </button>
          </form>
        </div>
        {keys && (
          <table class="history keys" data-testid="keys-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-testid="key-row" data-key-id={k.id}>
                  <td data-label="Name" data-testid="key-name">
                    {renaming === k.id ? (
                      <RenameKey
                        keyInfo={k}
                        busy={busy}
                        onSave={(name) => act(() => client.renameKey(k.id, name))}
                        onCancel={() => setRenaming(null)}
                      />
                    ) : (
                      (k.name ?? <span class="muted">unnamed</span>)
                    )}
                  </td>
                  <td data-label="Key">
                    <code class="mono">
                      {k.prefix ? `${k.prefix}…` : `key ${k.id.slice(0, 6)}`}
                    </code>
                    {k.current && <span class="badge">this session</span>}
                  </td>
                  <td class="nowrap" data-label="Created">
                    {formatTime(k.createdAt)}
                  </td>
                  <td class="nowrap" data-label="Last used" data-testid="key-last-used">
                    {formatTime(k.lastUsedAt)}
                  </td>
                  <td class="actions" data-label="Actions">
                    {confirming === k.id ? (
                      <span class="row wrap">
                        <span class="small">
                          {k.current ? 'Revoke the key you are signed in with?' : 'Revoke it?'}
                        </span>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => act(() => client.revokeKey(k.id))}
                        >
                          Yes, revoke
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Keep
                        </button>
                      </span>
                    ) : (
                      <span class="row wrap">
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`Rename key ${k.prefix ?? k.id}`}
                          onClick={() => setRenaming(k.id)}
                        >
                          Rename
                        </button>
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={`Rotate key ${k.prefix ?? k.id}`}
                          onClick={() => act(() => client.rotateKey(k.id))}
                        >
                          Rotate
                        </button>
                        <button
                          type="button"
                          disabled={busy || keys.length === 1}
                          aria-label={`Revoke key ${k.prefix ?? k.id}`}
                          title={keys.length === 1 ? 'The last key cannot be revoked' : undefined}
                          onClick={() => setConfirming(k.id)}
                        >
                          Revoke
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p class="muted small">
          Rotating replaces a key at once: the old one stops working. If you rotate the key you are
          signed in with, sign in again with the new one.
        </p>
      </div>
      <WebhookSecret client={client} />
    </section>
  );
}

/** A key's name, edited in its row; it takes focus when it opens. Empty clears the name. */
function RenameKey(props: {
  keyInfo: ApiKeyInfo;
  busy: boolean;
  onSave: (name: string | null) => void;
  onCancel: () => void;
}) {
  const { keyInfo: k } = props;
  const [name, setName] = useState(k.name ?? '');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      class="row wrap"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave(name.trim() || null);
      }}
    >
      <input
        ref={input}
        value={name}
        maxLength={100}
        aria-label={`Name of key ${k.prefix ?? k.id}`}
        onInput={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel();
        }}
      />
      <button type="submit" disabled={props.busy}>
        Save
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}

function WebhookSecret({ client }: { client: ApiClient }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [lang, setLang] = useState<'node' | 'python'>('node');

  const run = async (work: () => Promise<{ webhookSecret: string }>) => {
    setError(null);
    setConfirm(false);
    try {
      setSecret((await work()).webhookSecret);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const snippet = lang === 'node' ? NODE_SNIPPET : PYTHON_SNIPPET;
  return (
    <div class="card" data-testid="webhook-secret">
      <h2>Webhook signing secret</h2>
      <p class="muted small">
        Every webhook delivery carries <code>X-Webhook-Signature: sha256=…</code>, an HMAC-SHA256 of{' '}
        <code>&lt;X-Webhook-Timestamp&gt;.&lt;body&gt;</code> keyed with this secret.
      </p>
      <div class="row wrap">
        <code class="secret mono" data-testid="secret-value">
          {secret ?? 'whsec_••••••••••••••••'}
        </code>
        {secret ? (
          <>
            <CopyButton text={secret} label="Copy secret" />
            <button type="button" onClick={() => setSecret(null)}>
              Hide
            </button>
          </>
        ) : (
          <button type="button" onClick={() => run(() => client.webhookSecret())}>
            Reveal
          </button>
        )}
        {confirm ? (
          <>
            <span class="small">Deliveries from now on use the new secret.</span>
            <button
              type="button"
              class="danger"
              onClick={() => run(() => client.rotateWebhookSecret())}
            >
              Yes, rotate
            </button>
            <button type="button" onClick={() => setConfirm(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirm(true)}>
            Rotate secret
          </button>
        )}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="row spread wrap section-head">
        <h3>Verify a delivery</h3>
        <div class="row wrap">
          <div class="segmented" role="radiogroup" aria-label="Language">
            {(['node', 'python'] as const).map((l) => (
              <label key={l} class={lang === l ? 'on' : ''}>
                <input
                  type="radio"
                  name="snippet-lang"
                  value={l}
                  checked={lang === l}
                  onChange={() => setLang(l)}
                />
                {l === 'node' ? 'Node.js' : 'Python'}
              </label>
            ))}
          </div>
          <CopyButton text={snippet} label="Copy code" testId="copy-snippet" />
        </div>
      </div>
      <pre class="source" data-testid="verify-snippet" {...scrollable('Verification code')}>
        {snippet}
      </pre>
    </div>
  );
}
