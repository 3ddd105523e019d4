import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useRowSelection } from '@/lib/use-row-selection';
import { DataTable, sortParam, type Column, type SortState } from './data-table';

type Row = { id: string; name: string; score: number | null };

const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', sortValue: (r) => r.name, cell: (r) => r.name },
  { id: 'score', header: 'Score', sortValue: (r) => r.score, cell: (r) => String(r.score ?? '-') },
];

const rows: Row[] = ['Kilo', 'Alpha', 'Echo', 'Bravo', 'India', 'Delta', 'Golf'].map((name, i) => ({
  id: String(i),
  name,
  score: i === 2 ? null : i * 10,
}));

const bodyNames = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]?.textContent);

describe('DataTable', () => {
  it('shows 5 rows per page with the entries text and Previous/Next', async () => {
    const user = userEvent.setup();
    render(<DataTable label="People" data={rows} columns={columns} getRowId={(r) => r.id} />);
    expect(bodyNames()).toHaveLength(5);
    expect(screen.getByText('Showing 1 to 5 of 7 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Showing 6 to 7 of 7 entries')).toBeInTheDocument();
    expect(bodyNames()).toEqual(['Delta', 'Golf']);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Showing 1 to 5 of 7 entries')).toBeInTheDocument();
  });

  it('sorts by a column, ascending then descending, empty values last', async () => {
    const user = userEvent.setup();
    render(<DataTable label="People" data={rows} columns={columns} getRowId={(r) => r.id} pageSize={10} />);
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(bodyNames()).toEqual(['Alpha', 'Bravo', 'Delta', 'Echo', 'Golf', 'India', 'Kilo']);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(bodyNames()).toEqual(['Kilo', 'India', 'Golf', 'Echo', 'Delta', 'Bravo', 'Alpha']);
    await user.click(screen.getByRole('button', { name: 'Score' }));
    await user.click(screen.getByRole('button', { name: 'Score' }));
    expect(bodyNames().at(-1)).toBe('Echo');
  });

  it("says 'No results found.' when empty", () => {
    render(<DataTable label="People" data={[]} columns={columns} getRowId={(r) => r.id} />);
    expect(screen.getByText('No results found.')).toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });

  it('shows cards instead of a table below its width, with the same paging', () => {
    const queries: string[] = [];
    vi.stubGlobal('matchMedia', (query: string) => {
      queries.push(query);
      return { matches: true, media: query, addEventListener: () => undefined, removeEventListener: () => undefined };
    });
    try {
      render(
        <DataTable
          label="People"
          data={rows}
          columns={columns}
          getRowId={(r) => r.id}
          cardsBelow={1024}
          renderCard={(r) => <span>card {r.name}</span>}
        />,
      );
      expect(queries).toContain('(max-width: 1023px)');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const list = screen.getByRole('list', { name: 'People' });
      expect(within(list).getAllByRole('listitem')).toHaveLength(5);
      expect(within(list).getByText('card Kilo')).toBeInTheDocument();
      expect(screen.getByText('Showing 1 to 5 of 7 entries')).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('has a checkbox per card and one for the page on phones', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      const user = userEvent.setup();
      render(<Selectable cards />);
      const list = screen.getByRole('list', { name: 'People' });
      await user.click(within(list).getByRole('checkbox', { name: 'Select Kilo' }));
      expect(screen.getByTestId('picked')).toHaveTextContent('0');
      await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
      expect(screen.getByTestId('picked')).toHaveTextContent('0,1,2,3,4');
      await user.click(screen.getByRole('button', { name: 'Select all 7 matching' }));
      expect(screen.getByTestId('picked')).toHaveTextContent('0,1,2,3,4,5,6');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("shows the server's page as it is, asks for others, and sorts by the sort keys", async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    const onSortChange = vi.fn();
    const keyed: Column<Row>[] = [
      { id: 'name', header: 'Name', sortKey: 'name', cell: (r) => r.name },
      // A client-side sort value alone does not make a server-paged column sortable.
      { id: 'score', header: 'Score', sortValue: (r) => r.score, cell: (r) => String(r.score ?? '-') },
    ];
    const page = (props: { page: number; sort: SortState; busy?: boolean }) => (
      <DataTable
        label="People"
        data={rows.slice(0, 2)}
        columns={keyed}
        getRowId={(r) => r.id}
        paging={{ total: 12, onPageChange, onSortChange, ...props }}
      />
    );
    const { rerender } = render(page({ page: 1, sort: null }));
    // Rows in the server's order, not sorted or cut again.
    expect(bodyNames()).toEqual(['Kilo', 'Alpha']);
    expect(screen.getByText('Showing 6 to 10 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('table')).not.toHaveAttribute('aria-busy');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenLastCalledWith(0);

    expect(screen.queryByRole('button', { name: 'Score' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Score' })).not.toHaveAttribute('aria-sort');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ id: 'name', direction: 'asc' });
    rerender(page({ page: 0, sort: { id: 'name', direction: 'asc' } }));
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ id: 'name', direction: 'desc' });

    rerender(page({ page: 2, sort: null, busy: true }));
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Showing 11 to 12 of 12 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it("turns a sort state into the server's sort parameter", () => {
    const keyed: Column<Row>[] = [{ id: 'updated', header: 'Updated', sortKey: 'updatedAt', cell: () => null }];
    expect(sortParam(keyed, null)).toBeUndefined();
    expect(sortParam(keyed, { id: 'updated', direction: 'asc' })).toBe('updatedAt');
    expect(sortParam(keyed, { id: 'updated', direction: 'desc' })).toBe('-updatedAt');
    expect(sortParam(keyed, { id: 'other', direction: 'desc' })).toBeUndefined();
  });

  it('selects with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Selectable />);
    await user.tab();
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByTestId('picked')).toHaveTextContent('0,1,2,3,4');
    await user.keyboard(' ');
    expect(screen.getByTestId('picked')).toHaveTextContent('');
  });
});

const rowId = (r: Row) => r.id;

function Selectable({ cards = false }: { cards?: boolean }) {
  const selection = useRowSelection(rows, rowId);
  return (
    <>
      <DataTable
        label="People"
        data={rows}
        columns={columns}
        getRowId={rowId}
        renderCard={cards ? (r) => <span>card {r.name}</span> : undefined}
        selection={{ ...selection.table, rowLabel: (r) => `Select ${r.name}` }}
      />
      <p data-testid="picked">{[...selection.ids].sort().join(',')}</p>
    </>
  );
}
