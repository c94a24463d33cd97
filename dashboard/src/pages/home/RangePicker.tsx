import { Group, SegmentedControl, TextInput } from '@mantine/core';
import { lastDays } from '../../lib/metrics';

export interface Range {
  from: string;
  to: string;
}

const PRESETS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '12 months' },
  { value: 'custom', label: 'Custom' },
];

/** Home's period: a preset ending today, or two days the seller picks (the API answers at most 366 days). */
export function RangePicker({ preset, range, onChange }: { preset: string; range: Range; onChange: (preset: string, range: Range) => void }) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <SegmentedControl
        aria-label="Period"
        data={PRESETS}
        value={preset}
        onChange={(value) => onChange(value, value === 'custom' ? range : lastDays(new Date(), Number(value)))}
      />
      {preset === 'custom' && (
        <>
          <TextInput
            type="date"
            label="From"
            size="xs"
            value={range.from}
            max={range.to}
            onChange={(e) => e.currentTarget.value && onChange('custom', { ...range, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            size="xs"
            value={range.to}
            min={range.from}
            onChange={(e) => e.currentTarget.value && onChange('custom', { ...range, to: e.currentTarget.value })}
          />
        </>
      )}
    </Group>
  );
}
