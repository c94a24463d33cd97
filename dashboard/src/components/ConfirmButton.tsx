import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { ApiFailure } from '../api/client';
import { FormError } from './states';

/**
 * A button that asks first. `onConfirm` runs the write; when it answers with an error the dialog
 * stays open and shows the API's reason; on success it closes.
 */
export function ConfirmButton({
  title,
  message,
  confirmLabel = 'Confirm',
  onConfirm,
  children,
  color = 'red',
  ...button
}: ButtonProps & { title: string; message: ReactNode; confirmLabel?: string; onConfirm: () => Promise<ApiFailure | null | void>; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<ApiFailure | null>(null);
  const confirm = async () => {
    setRunning(true);
    const failure = await onConfirm();
    setRunning(false);
    if (failure) setError(failure);
    else setOpen(false);
  };
  return (
    <>
      <Button
        variant="default"
        size="xs"
        {...button}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {children}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <FormError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={color} loading={running} onClick={confirm} data-autofocus>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
