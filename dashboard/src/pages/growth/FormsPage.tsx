import {
  Anchor,
  Button,
  Card,
  Code,
  ColorInput,
  CopyButton,
  Grid,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type CSSProperties } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type SignupForm = JsonAnswer<'getSignupForm'>;
type FormBody = JsonBody<'createSignupForm'>;

const DEFAULTS: FormBody = {
  name: '',
  type: 'inline',
  headline: 'Join the newsletter',
  body: '',
  placeholder: 'you@example.com',
  buttonLabel: 'Subscribe',
  successHeadline: 'Thanks!',
  successMessage: 'You are subscribed.',
  accentColor: '#4338ca',
  collectName: false,
  doubleOptIn: true,
  position: 'bottom_right',
  frequencyDays: 7,
  tags: [],
  trigger: { delaySeconds: 0, scrollPercent: 0, exitIntent: false },
  status: 'active',
};

export function FormsPage() {
  const query = useQuery((api: Api) => unwrap(api.GET('/forms')));
  return (
    <Stack>
      <PageHeader
        title="Signup forms"
        description="Inline forms, slide-ins and popups to embed on any site; signups join your audience."
        actions={
          <Button component={Link} to="/forms/new">
            New form
          </Button>
        }
      />
      <QueryView query={query}>
        {(forms) => (
          <DataTable
            caption="Signup forms"
            rows={forms}
            rowKey={(f) => f._id}
            empty={{
              title: 'No signup forms yet',
              text: 'Create one, then paste its embed code on your site.',
              action: (
                <Button component={Link} to="/forms/new">
                  Create a form
                </Button>
              ),
            }}
            columns={[
              {
                key: 'name',
                header: 'Name',
                render: (f) => (
                  <Anchor component={Link} to={`/forms/${f._id}`}>
                    {f.name}
                  </Anchor>
                ),
              },
              { key: 'type', header: 'Type', render: (f) => f.type.replace('_', '-') },
              { key: 'status', header: 'Status', render: (f) => <StatusBadge status={f.status} /> },
              { key: 'views', header: 'Views', numeric: true, render: (f) => f.stats.views },
              { key: 'signups', header: 'Signups', numeric: true, render: (f) => f.stats.signups },
              { key: 'rate', header: 'Conversion', numeric: true, render: (f) => `${(f.stats.conversionRate * 100).toFixed(1)}%` },
              { key: 'updated', header: 'Updated', render: (f) => formatDate(f.updatedAt) },
            ]}
          />
        )}
      </QueryView>
    </Stack>
  );
}

/** The form as the embed draws it (shared/forms/embed.ts), from the values being edited. */
export function FormPreview({ form }: { form: FormBody }) {
  const card: CSSProperties = {
    background: '#fff',
    color: '#111',
    border: '1px solid #e5e7eb',
    borderRadius: 12,
    padding: 20,
    maxWidth: 440,
    boxShadow: '0 8px 30px rgba(0,0,0,.12)',
    position: 'relative',
    fontFamily: 'system-ui,-apple-system,Segoe UI,Roboto,sans-serif',
  };
  const input: CSSProperties = {
    display: 'block',
    width: '100%',
    padding: '10px 12px',
    margin: '0 0 8px',
    border: '1px solid #d1d5db',
    borderRadius: 8,
    fontSize: 15,
    boxSizing: 'border-box',
  };
  const frame: CSSProperties =
    form.type === 'popup'
      ? { background: 'rgba(17,24,39,.55)', padding: 20, display: 'flex', justifyContent: 'center', borderRadius: 8 }
      : form.type === 'slide_in'
        ? { display: 'flex', justifyContent: form.position === 'bottom_left' ? 'flex-start' : 'flex-end', padding: 12, background: '#f3f4f6', borderRadius: 8 }
        : { padding: 12, background: '#f3f4f6', borderRadius: 8 };
  return (
    <div style={frame} data-testid="form-preview">
      {/* biome-ignore lint/a11y/useSemanticElements: a picture of the embedded form, not a form group of this page */}
      <div style={card} role="group" aria-label={`Preview: ${form.headline || 'signup form'}`}>
        {form.type !== 'inline' && (
          <span aria-hidden style={{ position: 'absolute', top: 6, right: 10, fontSize: 22, color: '#4b5563' }}>
            ×
          </span>
        )}
        <h2 style={{ margin: '0 0 8px', fontSize: 20 }}>{form.headline}</h2>
        {form.body && <p style={{ margin: '0 0 12px', fontSize: 14, lineHeight: 1.45, color: '#374151' }}>{form.body}</p>}
        <form onSubmit={(e) => e.preventDefault()} aria-label="Preview form (does not subscribe)">
          {form.collectName && <input style={input} type="text" placeholder="First name" aria-label="First name (preview)" readOnly />}
          <input style={input} type="email" placeholder={form.placeholder} aria-label="Email (preview)" readOnly />
          <button
            type="submit"
            style={{ width: '100%', padding: '10px 12px', border: 0, borderRadius: 8, color: '#fff', fontSize: 15, background: form.accentColor }}
          >
            {form.buttonLabel}
          </button>
        </form>
      </div>
    </div>
  );
}

function EmbedCode({ form }: { form: SignupForm }) {
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Embed code
        </Title>
        <Text size="sm">Paste this where the form should appear (inline) or anywhere in the page (slide-in, popup).</Text>
        <Code block data-testid="embed-script" tabIndex={0} aria-label="Embed script" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {form.embed.script}
        </Code>
        <Group>
          <CopyButton value={form.embed.script}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy the script'}
              </Button>
            )}
          </CopyButton>
          <CopyButton value={form.embed.iframe}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy the iframe instead'}
              </Button>
            )}
          </CopyButton>
          <Anchor href={form.embed.preview} target="_blank" rel="noopener" size="sm">
            Open the saved form's preview page
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}

const toBody = (f: SignupForm): FormBody => ({
  name: f.name,
  type: f.type,
  headline: f.headline,
  body: f.body,
  placeholder: f.placeholder,
  buttonLabel: f.buttonLabel,
  successHeadline: f.successHeadline,
  successMessage: f.successMessage,
  accentColor: f.accentColor,
  collectName: f.collectName,
  doubleOptIn: f.doubleOptIn,
  position: f.position,
  frequencyDays: f.frequencyDays,
  tags: f.tags,
  trigger: f.trigger,
  leadMagnetUrl: f.leadMagnetUrl,
  leadMagnetProductId: f.leadMagnetProductId,
  status: f.status === 'archived' ? 'paused' : f.status,
});

function FormEditor({ saved }: { saved?: SignupForm }) {
  const navigate = useNavigate();
  const { api } = useSession();
  const [form, setForm] = useState<FormBody>(saved ? toBody(saved) : DEFAULTS);
  const set = (patch: Partial<FormBody>) => setForm((f) => ({ ...f, ...patch }));
  const save = useMutation((a: Api) => {
    const body = { ...form, leadMagnetUrl: form.leadMagnetUrl || null };
    return saved ? unwrap(a.PATCH('/forms/{id}', { params: { path: { id: saved._id } }, body })) : unwrap(a.POST('/forms', { body }));
  });
  return (
    <Stack>
      <PageHeader
        title={saved ? `Form: ${saved.name}` : 'New signup form'}
        description={saved ? `${saved.stats.views} views · ${saved.stats.signups} signups` : 'The preview shows the form as the embed draws it, as you type.'}
        actions={
          <>
            <Button component={Link} to="/forms" variant="default">
              All forms
            </Button>
            {saved && (
              <ConfirmButton
                title="Delete form"
                message={`Delete "${saved.name}"? Embeds of it stop showing.`}
                confirmLabel="Delete"
                onConfirm={() =>
                  attempt(async () => {
                    await unwrap(api.DELETE('/forms/{id}', { params: { path: { id: saved._id } } }));
                    navigate('/forms');
                  })
                }
              >
                Delete
              </ConfirmButton>
            )}
          </>
        }
      />
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <form
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              const answer = await save.run();
              if (answer) navigate(`/forms/${answer._id}`, { replace: true });
            }}
          >
            <Stack gap="sm">
              <TextInput label="Name" description="Only you see it" required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} />
              <Group grow>
                <Select
                  label="Type"
                  data={[
                    { value: 'inline', label: 'Inline' },
                    { value: 'slide_in', label: 'Slide-in' },
                    { value: 'popup', label: 'Popup' },
                  ]}
                  value={form.type ?? 'inline'}
                  onChange={(v) => set({ type: (v ?? 'inline') as FormBody['type'] })}
                  allowDeselect={false}
                />
                <Select
                  label="Status"
                  data={[
                    { value: 'active', label: 'Active' },
                    { value: 'paused', label: 'Paused' },
                  ]}
                  value={form.status ?? 'active'}
                  onChange={(v) => set({ status: (v ?? 'active') as FormBody['status'] })}
                  allowDeselect={false}
                />
              </Group>
              <TextInput label="Headline" value={form.headline ?? ''} onChange={(e) => set({ headline: e.currentTarget.value })} />
              <Textarea label="Text" autosize minRows={2} value={form.body ?? ''} onChange={(e) => set({ body: e.currentTarget.value })} />
              <Group grow>
                <TextInput label="Email placeholder" value={form.placeholder ?? ''} onChange={(e) => set({ placeholder: e.currentTarget.value })} />
                <TextInput label="Button label" value={form.buttonLabel ?? ''} onChange={(e) => set({ buttonLabel: e.currentTarget.value })} />
              </Group>
              <ColorInput
                label="Accent color"
                value={form.accentColor ?? '#4338ca'}
                onChange={(v) => set({ accentColor: v })}
                format="hex"
                withEyeDropper={false}
              />
              <Group>
                <Switch label="Ask for a first name" checked={form.collectName ?? false} onChange={(e) => set({ collectName: e.currentTarget.checked })} />
                <Switch label="Double opt-in" checked={form.doubleOptIn ?? true} onChange={(e) => set({ doubleOptIn: e.currentTarget.checked })} />
              </Group>
              <Group grow>
                <TextInput label="Success headline" value={form.successHeadline ?? ''} onChange={(e) => set({ successHeadline: e.currentTarget.value })} />
                <TextInput label="Success message" value={form.successMessage ?? ''} onChange={(e) => set({ successMessage: e.currentTarget.value })} />
              </Group>
              <TagsInput label="Tags for new contacts" value={form.tags ?? []} onChange={(v) => set({ tags: v })} />
              <TextInput
                label="Lead magnet link"
                description="https:// address shown after signing up"
                value={form.leadMagnetUrl ?? ''}
                onChange={(e) => set({ leadMagnetUrl: e.currentTarget.value })}
              />
              {form.type !== 'inline' && (
                <>
                  <Group grow>
                    {form.type === 'slide_in' && (
                      <Select
                        label="Position"
                        data={[
                          { value: 'bottom_right', label: 'Bottom right' },
                          { value: 'bottom_left', label: 'Bottom left' },
                        ]}
                        value={form.position ?? 'bottom_right'}
                        onChange={(v) => set({ position: (v ?? 'bottom_right') as FormBody['position'] })}
                        allowDeselect={false}
                      />
                    )}
                    <NumberInput
                      label="Show again after (days)"
                      min={0}
                      value={form.frequencyDays ?? 7}
                      onChange={(v) => set({ frequencyDays: Number(v || 0) })}
                    />
                  </Group>
                  <Group grow>
                    <NumberInput
                      label="Delay (seconds)"
                      min={0}
                      value={form.trigger?.delaySeconds ?? 0}
                      onChange={(v) => set({ trigger: { ...form.trigger, delaySeconds: Number(v || 0) } })}
                    />
                    <NumberInput
                      label="After scrolling (%)"
                      min={0}
                      max={100}
                      value={form.trigger?.scrollPercent ?? 0}
                      onChange={(v) => set({ trigger: { ...form.trigger, scrollPercent: Number(v || 0) } })}
                    />
                  </Group>
                  <Switch
                    label="Show on exit intent"
                    checked={form.trigger?.exitIntent ?? false}
                    onChange={(e) => set({ trigger: { ...form.trigger, exitIntent: e.currentTarget.checked } })}
                  />
                </>
              )}
              <FormError error={save.error} />
              <Group justify="flex-end">
                <Button type="submit" loading={save.running}>
                  {saved ? 'Save form' : 'Create form'}
                </Button>
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack>
            <Title order={2} size="h4">
              Live preview
            </Title>
            <FormPreview form={form} />
            {saved && <EmbedCode form={saved} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export function FormEditorPage() {
  const { id = 'new' } = useParams();
  const query = useQuery(async (api: Api) => (id === 'new' ? null : await unwrap(api.GET('/forms/{id}', { params: { path: { id } } }))), [id]);
  return <QueryView query={query}>{(saved) => <FormEditor key={saved?._id ?? 'new'} saved={saved ?? undefined} />}</QueryView>;
}

export const formsPage: PageDefinition = { path: 'forms', title: 'Signup forms', area: 'emails', group: 'Audience', element: <FormsPage /> };
export const formEditorPage: PageDefinition = {
  path: 'forms/:id',
  title: 'Signup form',
  area: 'emails',
  group: 'Audience',
  element: <FormEditorPage />,
  nav: false,
};
