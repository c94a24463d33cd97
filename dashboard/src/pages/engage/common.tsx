import { Badge, Box, Group, Progress, SegmentedControl, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';

/**
 * Re-runs `reload` every `ms` while `active` (a send or a notification in progress): the page shows
 * the API's own counters, never a guess.
 */
export function usePolling(active: boolean, reload: () => void, ms = 1500) {
  const ref = useRef(reload);
  ref.current = reload;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => ref.current(), ms);
    return () => window.clearInterval(timer);
  }, [active, ms]);
}

/** A labelled progress bar (long work: sends, notifications). */
export function WorkProgress({ label, done, total, running }: { label: string; done: number; total?: number | null; running: boolean }) {
  const value = total && total > 0 ? Math.min(100, Math.round((done / total) * 100)) : running ? 100 : 0;
  return (
    <Box data-testid="work-progress">
      <Group justify="space-between" mb={4}>
        <Text size="sm">{label}</Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {total ? `${done} of ${total}` : `${done} so far`}
          {running ? ' · in progress' : ''}
        </Text>
      </Group>
      <Progress value={value} animated={running} striped={running} aria-label={label} />
    </Box>
  );
}

/** A days range for reports (the API's `days` query, 1–366). */
export function DaysRange({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <Box>
      <Text size="sm" fw={500} id="days-range-label" mb={4}>
        Period
      </Text>
      <SegmentedControl
        aria-labelledby="days-range-label"
        value={String(value)}
        onChange={(v) => onChange(Number(v))}
        data={[
          { value: '7', label: '7 days' },
          { value: '30', label: '30 days' },
          { value: '90', label: '90 days' },
          { value: '365', label: '365 days' },
        ]}
      />
    </Box>
  );
}

export const OnOff = ({ on, label }: { on: boolean; label?: string }) => (
  <Badge color={on ? 'green' : 'gray'} variant="light">
    {label ? `${label} ${on ? 'on' : 'off'}` : on ? 'on' : 'off'}
  </Badge>
);

/** A stat for a report header. */
export function Stat({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Box p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, minWidth: 140 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Box>
  );
}

export const pct = (n: number) => `${Math.round(n * 10) / 10}%`;
