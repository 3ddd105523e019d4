import { useState } from 'react';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-error';
import { useCreateSubscription } from '@/lib/api/create-subscription';

/**
 * Upgrade Now: asks the server for a Stripe Checkout page and sends the browser there. `pending`
 * stays true from the click until the browser leaves, so the button cannot start a second checkout.
 */
export function useStartCheckout() {
  const subscription = useCreateSubscription();
  const [redirecting, setRedirecting] = useState(false);

  function start() {
    subscription.mutate(undefined, {
      onSuccess: (data) => {
        if (!data?.url) {
          toast({ title: 'Upgrade Failed', description: 'No checkout URL received from server', variant: 'error' });
          return;
        }
        setRedirecting(true);
        window.location.assign(data.url);
      },
      onError: (error) =>
        toast({ title: 'Upgrade Failed', description: errorMessage(error, 'Failed to start upgrade process'), variant: 'error' }),
    });
  }

  return { start, pending: subscription.isPending || redirecting };
}
