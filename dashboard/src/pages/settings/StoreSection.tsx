import { Button, Card, ColorInput, Group, Image, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { FormError } from '../../components/states';
import { useMutation } from '../../lib/hooks';

type Branding = JsonAnswer<'getBranding'>;
type BrandingBody = JsonBody<'updateBranding'>;
type Locale = NonNullable<Branding['locale']>;
type StoreImage = JsonAnswer<'listImages'>[number];

/** Each language by its own name, as buyers see it in the checkout's language menu. */
export const LANGUAGES: { value: Locale; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
  { value: 'de', label: 'Deutsch' },
  { value: 'es', label: 'Español' },
  { value: 'pt-BR', label: 'Português (Brasil)' },
  { value: 'ja', label: '日本語' },
];

const FIELDS = ['displayName', 'logoImageId', 'accentColor', 'supportEmail', 'legalName', 'legalAddress', 'taxId', 'locale'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

const valuesOf = (b: Branding): Values => ({
  displayName: b.displayName ?? '',
  logoImageId: b.logoImageId ?? '',
  accentColor: b.accentColor ?? '',
  supportEmail: b.supportEmail ?? '',
  legalName: b.legalName ?? '',
  legalAddress: b.legalAddress ?? '',
  taxId: b.taxId ?? '',
  locale: b.locale ?? '',
});

/** Only what changed goes to the API; an emptied field is cleared (null). */
export function brandingChanges(saved: Values, edited: Values): BrandingBody | null {
  const body: Record<string, string | null> = {};
  for (const key of FIELDS) if (saved[key] !== edited[key]) body[key] = edited[key].trim() === '' ? null : edited[key].trim();
  return Object.keys(body).length ? (body as BrandingBody) : null;
}

/** What buyers see on the checkout, receipts and invoices: name, logo, colour, contact, legal details, language. */
export function StoreSection({ saved, images, onSaved }: { saved: Branding; images: StoreImage[]; onSaved: (b: Branding) => void }) {
  const [values, setValues] = useState<Values>(() => valuesOf(saved));
  const [done, setDone] = useState(false);
  const save = useMutation((api: Api, body: BrandingBody) => unwrap(api.PATCH('/account/branding', { body })));
  const field = (key: keyof Values) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value }),
  });
  const logo = images.find((i) => i._id === values.logoImageId);
  return (
    <Card withBorder id="store">
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(false);
          const body = brandingChanges(valuesOf(saved), values);
          if (!body) return setDone(true);
          const answer = await save.run(body);
          if (answer) {
            onSaved(answer);
            setValues(valuesOf(answer));
            setDone(true);
          }
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            Your store
          </Title>
          <Text size="sm" c="dimmed">
            Buyers see these on the checkout, the thank-you page, receipts and invoices.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Store name" placeholder="Shown at the top of the checkout" {...field('displayName')} />
            <TextInput label="Support email" type="email" placeholder="help@yourstore.com" {...field('supportEmail')} />
            <Group align="flex-end" wrap="nowrap">
              <Select
                label="Logo"
                placeholder={images.length ? 'Pick an uploaded image' : 'Upload an image under Products › Images first'}
                data={images.map((i) => ({ value: i._id, label: i.filename }))}
                value={values.logoImageId || null}
                onChange={(v) => setValues({ ...values, logoImageId: v ?? '' })}
                clearable
                disabled={!images.length}
                style={{ flex: 1 }}
              />
              {logo && <Image src={logo.url} alt="Current logo" h={36} w="auto" fit="contain" />}
            </Group>
            <ColorInput
              withEyeDropper={false}
              label="Accent colour"
              placeholder="#1d4ed8"
              format="hex"
              value={values.accentColor}
              onChange={(v) => setValues({ ...values, accentColor: v })}
            />
            <TextInput label="Legal name" description="The business name on invoices" {...field('legalName')} />
            <TextInput label="VAT or tax number" description="Printed on invoices when set" {...field('taxId')} />
          </SimpleGrid>
          <Textarea label="Legal address" description="Printed on invoices" autosize minRows={2} {...field('legalAddress')} />
          <Select
            label="Default language for buyers"
            description="Buyers whose own language is not offered see pages and mails in this one."
            placeholder="English"
            data={LANGUAGES}
            value={values.locale || null}
            onChange={(v) => setValues({ ...values, locale: v ?? '' })}
            clearable
            maw={320}
          />
          <FormError error={save.error} />
          <div role="status" aria-live="polite">
            {done && <Text size="sm">Saved.</Text>}
          </div>
          <Group justify="flex-end">
            <Button type="submit" loading={save.running}>
              Save store details
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
