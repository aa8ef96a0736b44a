import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient, errorText } from './api/client.js';
import type { Account } from './api/types.js';
import { CrawlList } from './components/crawls/crawl-list.js';
import { CrawlResults } from './components/crawls/crawl-results.js';
import { Header } from './components/header.js';
import { Playground } from './components/playground.js';
import { SignIn } from './components/sign-in.js';
import { useWorkflows } from './components/use-workflows.js';
import { WorkflowForm } from './components/workflow-form.js';
import { WorkflowList } from './components/workflow-list.js';
import { WorkflowView } from './components/workflow-view.js';
import { href, navigate, useRoute } from './lib/route.js';

/** sessionStorage: the key lives as long as the tab, and is gone when it closes. */
const KEY_STORAGE = 'pagegrab.apiKey';

export function App() {
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_STORAGE));
  const client = useMemo(() => (apiKey ? new ApiClient(apiKey) : null), [apiKey]);

  const signIn = (key: string, account: Account) => {
    sessionStorage.setItem(KEY_STORAGE, key);
    setApiKey(key);
    setInitialAccount(account);
  };
  const signOut = () => {
    sessionStorage.removeItem(KEY_STORAGE);
    setApiKey(null);
    navigate(href.list());
  };
  const [initialAccount, setInitialAccount] = useState<Account | null>(null);

  if (!client) return <SignIn onSignIn={signIn} />;
  return <SignedIn client={client} initialAccount={initialAccount} onSignOut={signOut} />;
}

interface SignedInProps {
  client: ApiClient;
  initialAccount: Account | null;
  onSignOut: () => void;
}

function SignedIn({ client, initialAccount, onSignOut }: SignedInProps) {
  const route = useRoute();
  const [account, setAccount] = useState<Account | null>(initialAccount);
  const [accountError, setAccountError] = useState<string | null>(null);
  const workflows = useWorkflows(client);

  const refreshAccount = useCallback(async () => {
    try {
      setAccount(await client.account());
      setAccountError(null);
    } catch (err) {
      setAccountError(errorText(err));
    }
  }, [client]);
  useEffect(() => {
    void refreshAccount();
  }, [refreshAccount]);

  const section =
    route.view === 'playground'
      ? 'playground'
      : route.view === 'crawls' || route.view === 'crawl'
        ? 'crawls'
        : 'workflows';
  let main: preact.ComponentChild;
  if (route.view === 'crawls') {
    main = <CrawlList client={client} />;
  } else if (route.view === 'crawl') {
    main = <CrawlResults client={client} id={route.id} />;
  } else if (route.view === 'list') {
    main = <WorkflowList tab={route.tab} store={workflows} />;
  } else if (route.view === 'new') {
    main = (
      <WorkflowForm
        client={client}
        onSaved={(w) => {
          workflows.upsert(w);
          navigate(href.workflow(w.id));
        }}
      />
    );
  } else if (route.view === 'playground') {
    main = <Playground client={client} onRan={refreshAccount} />;
  } else {
    const wf = workflows.list?.find((w) => w.id === route.id);
    if (!workflows.list) main = <p aria-live="polite">Loading…</p>;
    else if (!wf) main = <p role="alert">Workflow not found.</p>;
    else if (route.view === 'edit')
      main = (
        <WorkflowForm
          client={client}
          workflow={wf}
          onSaved={(w) => {
            workflows.upsert(w);
            navigate(href.workflow(w.id));
          }}
        />
      );
    else
      main = (
        <WorkflowView
          key={wf.id}
          client={client}
          workflow={wf}
          onChange={workflows.upsert}
          onRan={() => {
            void refreshAccount();
            void workflows.reload();
          }}
        />
      );
  }

  return (
    <>
      <Header account={account} error={accountError} section={section} onSignOut={onSignOut} />
      <main id="main" class="main" tabIndex={-1}>
        {main}
      </main>
    </>
  );
}
