export { Toaster } from './toaster';
export { dismissToast, resetToasts, toast, useToasts, TOAST_DURATION, TOAST_LIMIT } from './toast-store';
export type { ToastInput, ToastItem, ToastVariant } from './toast-store';
