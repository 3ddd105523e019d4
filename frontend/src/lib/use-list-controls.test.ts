import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '@/config';
import { useListControls } from './use-list-controls';

describe('useListControls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the search once typing has paused, trimmed, and starts again at the first page', () => {
    const { result } = renderHook(() => useListControls<'all' | 'expired'>('all'));
    act(() => result.current.setPage(2));
    expect(result.current.offset).toBe(10);
    for (const typed of ['a', 'ac', 'acm', ' acme ']) {
      act(() => result.current.setSearch(typed));
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50));
    }
    expect(result.current.search).toBe(' acme ');
    expect(result.current.query).toBe('');
    expect(result.current.page).toBe(2);
    act(() => vi.advanceTimersByTime(50));
    expect(result.current.query).toBe('acme');
    expect(result.current.page).toBe(0);
    expect(result.current.filtered).toBe(true);
  });

  it('starts again at the first page for a new filter or sort, and keeps the selection through a sort', () => {
    const { result } = renderHook(() => useListControls<'all' | 'expired'>('all'));
    const scope = result.current.selectionScope;
    act(() => result.current.setPage(3));
    act(() => result.current.setSort({ id: 'name', direction: 'desc' }));
    expect(result.current.page).toBe(0);
    expect(result.current.selectionScope).toBe(scope);
    act(() => result.current.setPage(1));
    act(() => result.current.setFilter('expired'));
    expect(result.current.page).toBe(0);
    expect(result.current.selectionScope).not.toBe(scope);
    expect(result.current.filtered).toBe(true);
  });

  it('starts with the sort it is given, and a new sort starts again at the first page', () => {
    const { result } = renderHook(() => useListControls('all', { id: 'reminderDate', direction: 'asc' }));
    expect(result.current.sort).toEqual({ id: 'reminderDate', direction: 'asc' });
    act(() => result.current.setPage(2));
    act(() => result.current.setSort({ id: 'reminderDate', direction: 'desc' }));
    expect(result.current.page).toBe(0);
    expect(result.current.filtered).toBe(false);
  });

  it('goes back to the last page with rows', () => {
    const { result } = renderHook(() => useListControls('all'));
    act(() => result.current.setPage(3));
    act(() => result.current.keepInRange(11));
    expect(result.current.page).toBe(2);
    act(() => result.current.keepInRange(0));
    expect(result.current.page).toBe(0);
  });
});
