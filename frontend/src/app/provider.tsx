import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from '@/components/ui/toast';
import { useValidateSession } from '@/features/auth/hooks/use-validate-session';
import { queryClient as defaultQueryClient } from '@/lib/query-client';

function SessionValidator() {
  useValidateSession();
  return null;
}

export function AppProvider({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionValidator />
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
