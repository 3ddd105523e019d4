import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';
import { ActionMenu } from './menu';
import { Select } from './select';

const options = [
  { value: 'a', label: 'Alpha' },
  { value: 'b', label: 'Bravo' },
] as const;

function Picker() {
  const [value, setValue] = useState<'a' | 'b'>('a');
  return <Select label="Letter" value={value} onChange={setValue} options={options} />;
}

describe('floating panels stay in a landmark', () => {
  it("puts a row menu's items in the landmark around its button", async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <main>
          <ActionMenu label="Actions for Acme" actions={[{ label: 'Delete', onSelect: () => undefined }]} />
        </main>
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Actions for Acme' }));
    expect(within(screen.getByRole('main')).getByRole('menu')).toBeInTheDocument();
  });

  it("puts a listbox's options in the landmark around its button", async () => {
    const user = userEvent.setup();
    render(
      <nav aria-label="Filters">
        <Picker />
      </nav>,
    );
    await user.click(screen.getByRole('button', { name: /Letter/ }));
    const listbox = within(screen.getByRole('navigation', { name: 'Filters' })).getByRole('listbox');
    await user.click(within(listbox).getByRole('option', { name: 'Bravo' }));
    expect(screen.getByRole('button', { name: /Letter/ })).toHaveTextContent('Bravo');
  });

  it('keeps the options of a listbox in a dialog inside the dialog', async () => {
    const user = userEvent.setup();
    render(
      <main>
        <Dialog open onClose={() => undefined} title="Pick one">
          <Picker />
        </Dialog>
      </main>,
    );
    await user.click(screen.getByRole('button', { name: /Letter/ }));
    expect(within(screen.getByRole('dialog', { name: 'Pick one' })).getByRole('listbox')).toBeInTheDocument();
  });

  it('leaves a panel with no landmark around it where Headless UI puts it', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    await user.click(screen.getByRole('button', { name: /Letter/ }));
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
  });
});
