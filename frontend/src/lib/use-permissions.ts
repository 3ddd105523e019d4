import { billingPermission, writePermission, type Permission } from './permissions';
import { useUser } from './session';

/** Whether the signed-in person may write (members and above); a viewer's reason for the title. */
export function useWritePermission(): Permission {
  return writePermission(useUser());
}

/** Whether the signed-in person may change the plan or billing (admins and the owner). */
export function useBillingPermission(): Permission {
  return billingPermission(useUser());
}
