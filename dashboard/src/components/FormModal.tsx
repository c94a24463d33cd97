import { Button, Group, Modal, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { ApiFailure } from '../api/client';
import { FormError } from './states';

export interface Field {
  name: string;
  label: string;
  kind?: 'text' | 'email' | 'url' | 'number' | 'textarea' | 'switch' | 'select' | 'multiselect' | 'tags' | 'datetime';
  required?: boolean;
  description?: string;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
  decimals?: number;
}

export type FormValues = Record<string, unknown>;

/** Reads a form value as the API wants it: an empty input is left out. */
export const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
export const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

function FieldInput({ field, value, onChange }: { field: Field; value: unknown; onChange: (v: unknown) => void }) {
  const common = { label: field.label, description: field.description, required: field.required, name: field.name };
  switch (field.kind) {
    case 'number':
      return (
        <NumberInput
          {...common}
          value={(value as number | string | undefined) ?? ''}
          onChange={onChange}
          min={field.min}
          max={field.max}
          decimalScale={field.decimals}
        />
      );
    case 'textarea':
      return <Textarea {...common} autosize minRows={3} value={(value as string) ?? ''} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'switch':
      return (
        <Switch
          label={field.label}
          description={field.description}
          name={field.name}
          checked={Boolean(value)}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          value={(value as string | null) ?? null}
          onChange={onChange}
          allowDeselect={!field.required}
          clearable={!field.required}
        />
      );
    case 'multiselect':
      return <MultiSelect {...common} data={field.options ?? []} value={(value as string[]) ?? []} onChange={onChange} searchable />;
    case 'tags':
      return <TagsInput {...common} data={field.options?.map((o) => o.value) ?? []} value={(value as string[]) ?? []} onChange={onChange} />;
    case 'datetime':
      return <TextInput {...common} type="datetime-local" value={(value as string) ?? ''} onChange={(e) => onChange(e.currentTarget.value)} />;
    default:
      return <TextInput {...common} type={field.kind ?? 'text'} value={(value as string) ?? ''} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

/**
 * A create/edit dialog. `onSubmit` sends the write and answers the API's refusal (shown in the
 * dialog, values kept) or null (the dialog closes).
 */
export function FormModal({
  title,
  opened,
  onClose,
  fields,
  initial,
  onSubmit,
  submitLabel = 'Save',
  children,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  fields: Field[];
  initial?: FormValues;
  onSubmit: (values: FormValues) => Promise<ApiFailure | null>;
  submitLabel?: string;
  children?: ReactNode;
}) {
  const [values, setValues] = useState<FormValues>(initial ?? {});
  const [error, setError] = useState<ApiFailure | null>(null);
  const [running, setRunning] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form resets when it opens, not whenever its initial values are rebuilt
  useEffect(() => {
    if (opened) {
      setValues(initial ?? {});
      setError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRunning(true);
    const failure = await onSubmit(values);
    setRunning(false);
    setError(failure);
    if (!failure) onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {fields.map((field) => (
            <FieldInput key={field.name} field={field} value={values[field.name]} onChange={(v) => setValues((all) => ({ ...all, [field.name]: v }))} />
          ))}
          {children}
          <FormError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={running}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Runs a write for a form or confirm dialog: null when it went through, else the API's refusal. */
export async function attempt(write: () => Promise<unknown>): Promise<ApiFailure | null> {
  try {
    await write();
    return null;
  } catch (failure) {
    return failure as ApiFailure;
  }
}
