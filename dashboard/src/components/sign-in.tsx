import { useEffect, useState } from 'preact/hooks';
import { ApiClient, errorText } from '../api/client.js';
import type { Account } from '../api/types.js';

interface Props {
  onSignIn: (key: string, account: Account, persist: boolean) => void;
}

export function SignIn({ onSignIn }: Props) {
  const [key, setKey] = useState('');
  const [persist, setPersist] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · pagegrab';
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError('Enter your API key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Checking the key against /api/account means a typo fails here, not on every page.
      const account = await new ApiClient(trimmed).account();
      onSignIn(trimmed, account, persist);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form class="card" onSubmit={submit} data-testid="signin-form" aria-describedby="signin-help">
        <h1>pagegrab</h1>
        <p id="signin-help" class="muted">
          Sign in with your API key. It is sent as the X-API-Key header and kept in this tab only,
          unless you tick the box below.
        </p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => {
            setKey(e.currentTarget.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-errormessage={error ? 'signin-error' : undefined}
        />
        {error && (
          <p id="signin-error" class="error" role="alert" data-testid="signin-error">
            {error}
          </p>
        )}
        <label class="check" for="keep-signed-in">
          <input
            id="keep-signed-in"
            type="checkbox"
            checked={persist}
            onChange={(e) => setPersist(e.currentTarget.checked)}
          />
          Keep me signed in on this browser (all tabs, until I sign out)
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted small">
          The first start of the service prints a key. <a href="/docs">API reference</a>
        </p>
      </form>
    </main>
  );
}
