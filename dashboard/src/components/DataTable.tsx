import { Button, Group, ScrollArea, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from './states';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Right-aligned (amounts). */
  numeric?: boolean;
}

/** A list page's table: scrolls sideways on small screens, states its own emptiness. */
export function DataTable<T>({ rows, columns, rowKey, caption, empty }: { rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string; caption: string; empty?: { title: string; text?: ReactNode; action?: ReactNode } }) {
  if (rows.length === 0) return <EmptyState title={empty?.title ?? `No ${caption.toLowerCase()} yet`} action={empty?.action}>{empty?.text}</EmptyState>;
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover verticalSpacing="xs" miw={640} aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} scope="col" style={c.numeric ? { textAlign: 'right' } : undefined}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={c.numeric ? { textAlign: 'right' } : undefined}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** Page-number pagination (`page`, `pageSize`, `total`). */
export function PagePager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        Page {page} of {pages} · {total} in all
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="xs" variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </Group>
    </Group>
  );
}

/**
 * Cursor pagination: the API gives `next` (or `hasMore`); the pager keeps the cursors walked so
 * far so that Previous works too.
 */
export function CursorPager({ cursors, next, onChange }: { cursors: (string | undefined)[]; next: string | null | undefined; onChange: (cursors: (string | undefined)[]) => void }) {
  return (
    <Group justify="flex-end" mt="sm" gap="xs">
      <Button size="xs" variant="default" disabled={cursors.length <= 1} onClick={() => onChange(cursors.slice(0, -1))}>
        Previous
      </Button>
      <Button size="xs" variant="default" disabled={!next} onClick={() => onChange([...cursors, next ?? undefined])}>
        Next
      </Button>
    </Group>
  );
}
