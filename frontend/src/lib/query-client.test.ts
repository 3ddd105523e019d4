import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, startVisit } from './query-client';

/** A query whose reads are counted, and a way to mount a component that shows it. */
function setup() {
  const client = createQueryClient();
  const read = vi.fn(() => Promise.resolve('answer'));
  const options = { queryKey: ['thing'], queryFn: read };
  const mount = async () => {
    const unsubscribe = new QueryObserver(client, options).subscribe(() => {});
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    unsubscribe();
  };
  return { client, read, options, mount };
}

describe('query client: a read per visit', () => {
  it('does not read again on mount what this visit read, and reads it again in the next visit', async () => {
    const { client, read, options, mount } = setup();
    startVisit();
    await client.prefetchQuery(options);
    await mount();
    await mount();
    expect(read).toHaveBeenCalledTimes(1);

    startVisit();
    await mount();
    await mount();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again on mount what was invalidated or failed in this visit', async () => {
    const { client, read, options, mount } = setup();
    startVisit();
    await client.prefetchQuery(options);
    await client.invalidateQueries({ queryKey: options.queryKey, refetchType: 'none' });
    await mount();
    expect(read).toHaveBeenCalledTimes(2);

    read.mockRejectedValueOnce(new Error('down'));
    await client.refetchQueries({ queryKey: options.queryKey });
    await mount();
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('reads again when asked for, in the same visit (staleTime 0)', async () => {
    const { client, read, options } = setup();
    startVisit();
    await client.prefetchQuery(options);
    await client.prefetchQuery(options);
    await client.fetchQuery(options);
    expect(read).toHaveBeenCalledTimes(3);
  });
});
