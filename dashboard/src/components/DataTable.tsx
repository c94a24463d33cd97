import { Button, Group, ScrollArea, Table, Text, TextInput } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';
import { downloadCsv } from '../lib/csv';
import { EmptyState } from './states';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Right-aligned (amounts). */
  numeric?: boolean;
  /** Stays on a phone's narrow screen (amount, status, what identifies the row); the others fold away. */
  phone?: boolean;
  /** The cell as plain text for search and CSV; without it the rendered cell's text is used. */
  text?: (row: T) => string;
}

/** Whether a row matches what was typed: any of its values, case and accents ignored. */
export function rowMatches(row: unknown, term: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const wanted = fold(term.trim());
  if (!wanted) return true;
  return fold(JSON.stringify(row) ?? '').includes(wanted);
}

/**
 * A list page's table: a search box over the rows shown, a CSV export (of every page when the
 * page gives `exportAll`, else of the rows shown), sideways scroll, and on a phone only the
 * columns marked `phone` (when any is). States its own emptiness.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  caption,
  empty,
  exportAll,
  tools = true,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  caption: string;
  empty?: { title: string; text?: ReactNode; action?: ReactNode };
  exportAll?: () => Promise<T[]>;
  tools?: boolean;
}) {
  const [term, setTerm] = useState('');
  const [exporting, setExporting] = useState(false);
  const tableRef = useRef<HTMLTableElement>(null);
  if (rows.length === 0)
    return (
      <EmptyState title={empty?.title ?? `No ${caption.toLowerCase()} yet`} action={empty?.action}>
        {empty?.text}
      </EmptyState>
    );
  const shown = rows.filter((row) => rowMatches(row, term));
  const folds = columns.some((c) => c.phone);
  const hide = (c: Column<T>) => (folds && !c.phone ? { visibleFrom: 'sm' as const } : {});
  const exportCsv = async () => {
    const filename = `${caption.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`;
    const header = columns.map((c) => c.header);
    if (exportAll) {
      setExporting(true);
      try {
        const all = (await exportAll()).filter((row) => rowMatches(row, term));
        downloadCsv(filename, [header, ...all.map((row) => columns.map((c) => (c.text ? c.text(row) : '')))]);
      } finally {
        setExporting(false);
      }
      return;
    }
    // The rows shown, as the table renders them (every column, folded ones included).
    const body = [...(tableRef.current?.tBodies[0]?.rows ?? [])].map((tr) => [...tr.cells].map((td) => (td.textContent ?? '').trim()));
    downloadCsv(filename, [header, ...body]);
  };
  return (
    <>
      {tools && (
        <Group justify="space-between" gap="xs" wrap="wrap">
          <TextInput
            size="xs"
            type="search"
            aria-label={`Search ${caption.toLowerCase()}`}
            placeholder="Search"
            value={term}
            onChange={(e) => setTerm(e.currentTarget.value)}
            w={260}
          />
          <Button size="xs" variant="default" loading={exporting} onClick={() => void exportCsv()}>
            Export CSV
          </Button>
        </Group>
      )}
      <ScrollArea type="auto">
        <Table ref={tableRef} striped highlightOnHover verticalSpacing="xs" miw={folds ? { base: 0, sm: 640 } : 640} aria-label={caption}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} scope="col" style={c.numeric ? { textAlign: 'right' } : undefined} {...hide(c)}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((c) => (
                  <Table.Td key={c.key} style={c.numeric ? { textAlign: 'right' } : undefined} {...hide(c)}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {shown.length === 0 && (
        <Text size="sm" c="dimmed" ta="center">
          Nothing here matches “{term}”.
        </Text>
      )}
    </>
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
export function CursorPager({
  cursors,
  next,
  onChange,
}: {
  cursors: (string | undefined)[];
  next: string | null | undefined;
  onChange: (cursors: (string | undefined)[]) => void;
}) {
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
