import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast, Toaster, TOAST_DURATION, useToasts } from '.';

function Count() {
  return <span data-testid="count">{useToasts().length}</span>;
}

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('shows title and description with role status', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Login successful', description: 'Welcome back!', variant: 'success' });
    });
    const status = screen.getByRole('status');
    expect(within(status).getByText('Login successful')).toBeInTheDocument();
    expect(within(status).getByText('Welcome back!')).toBeInTheDocument();
    expect(status).toHaveAttribute('data-variant', 'success');
    // A named landmark (no aria-label on a role-less div), so the toasts sit in a region.
    expect(screen.getByRole('region', { name: 'Notifications' })).toContainElement(status);
  });

  it('shows only one toast at a time: a new one replaces the old', () => {
    render(
      <>
        <Toaster />
        <Count />
      </>,
    );
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', variant: 'error' });
    });
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Second');
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByTestId('count')).toHaveTextContent('1');
  });

  it('closes after the default 5000 ms', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Document uploaded' });
    });
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION - 1);
    });
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('can be closed by hand', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<Toaster />);
    act(() => {
      toast({ title: 'Closable' });
    });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
