import { Alert, Button, Center, Paper, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiFailure } from '../../api/client';
import { exchangeLink, requestMagicLink } from '../../api/auth';
import { storesOf, useSession } from '../../session';
import { FormError, LoadingState } from '../../components/states';

const LINK_ERRORS: Record<string, string> = {
  LINK_USED: 'This sign-in link was already used. Ask for a new one below.',
  LINK_EXPIRED: 'This sign-in link has expired (links last 15 minutes). Ask for a new one below.',
  INVALID_LINK: 'This sign-in link is not valid. Ask for a new one below.',
};

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        {children}
      </Paper>
    </Center>
  );
}

/** Email → magic link; `?token=` exchanges the link; several stores → a picker. */
export function SignInPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [exchanging, setExchanging] = useState(Boolean(token));
  const exchanged = useRef(false);

  useEffect(() => {
    if (!token || exchanged.current) return;
    exchanged.current = true;
    exchangeLink(session.config.apiBaseUrl, token).then(
      (signedIn) => {
        session.signIn(signedIn);
        setExchanging(false);
        // The link is single-use: keep it out of the address bar and history.
        setParams({}, { replace: true });
      },
      (failure: ApiFailure) => {
        setError(new ApiFailure(failure.status, { message: (failure.code && LINK_ERRORS[failure.code]) || failure.message }));
        setExchanging(false);
        setParams({}, { replace: true });
      },
    );
  }, [token, session, setParams]);

  if (exchanging)
    return (
      <Frame>
        <LoadingState label="Signing you in…" />
      </Frame>
    );

  if (session.session && !session.current) {
    const stores = storesOf(session.session);
    return (
      <Frame>
        <Stack>
          <Title order={1} size="h3">
            Choose a store
          </Title>
          <Text size="sm" c="dimmed">
            You can reach {stores.length} stores as {session.session.email}.
          </Text>
          {stores.map((store) => (
            <UnstyledButton
              key={store.accountId}
              onClick={() => {
                session.selectStore(store.accountId);
                navigate('/');
              }}
              p="sm"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
            >
              <Text fw={600}>{store.storeName}</Text>
              <Text size="xs" c="dimmed">
                {store.role}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      </Frame>
    );
  }
  if (session.session && session.current) return <Navigate to={params.get('next') ?? '/'} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      await requestMagicLink(session.config.apiBaseUrl, email.trim());
      setSent(true);
    } catch (failure) {
      setError(failure as ApiFailure);
    } finally {
      setSending(false);
    }
  };

  return (
    <Frame>
      <Stack>
        <Title order={1} size="h3">
          Sign in to your dashboard
        </Title>
        {session.notice && !error && (
          <Alert color="blue" role="status">
            {session.notice}
          </Alert>
        )}
        <FormError error={error} title="Could not sign you in" />
        {sent ? (
          <Alert color="green" role="status" title="Check your inbox" data-testid="link-sent">
            If {email} belongs to a store owner or team member, a sign-in link is on its way. It works once, for 15 minutes.
          </Alert>
        ) : (
          <form onSubmit={submit}>
            <Stack>
              <TextInput
                label="Email"
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                data-autofocus
              />
              <Button type="submit" loading={sending}>
                Email me a sign-in link
              </Button>
            </Stack>
          </form>
        )}
        {sent && (
          <Button variant="subtle" onClick={() => setSent(false)}>
            Use another address
          </Button>
        )}
      </Stack>
    </Frame>
  );
}
