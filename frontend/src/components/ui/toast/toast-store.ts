import { useSyncExternalStore } from 'react';

/** One toast at a time, 5 s by default, dropped from memory 1,000,000 ms after it closes (docs/product.md, "Screens"). */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'success' | 'error';

export type ToastInput = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast closes by itself. */
  duration?: number;
};

export type ToastItem = ToastInput & {
  id: string;
  open: boolean;
};

let counter = 0;
let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();
const closeTimers = new Map<string, ReturnType<typeof setTimeout>>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

function clearTimer(timers: Map<string, ReturnType<typeof setTimeout>>, id: string) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Closes one toast, or all of them. A closed toast stays in memory until its removal delay. */
export function dismissToast(id?: string) {
  const targets = toasts.filter((t) => (id === undefined || t.id === id) && t.open);
  targets.forEach((t) => {
    clearTimer(closeTimers, t.id);
    scheduleRemoval(t.id);
  });
  if (targets.length) {
    emit(toasts.map((t) => (targets.includes(t) ? { ...t, open: false } : t)));
  }
}

/** Shows a toast; it replaces the one on screen (limit 1). */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { variant: 'default', ...input, id, open: true };
  const kept = [item, ...toasts].slice(0, TOAST_LIMIT);
  toasts
    .filter((t) => !kept.includes(t))
    .forEach((t) => {
      clearTimer(closeTimers, t.id);
      clearTimer(removeTimers, t.id);
    });
  emit(kept);
  closeTimers.set(
    id,
    setTimeout(() => dismissToast(id), input.duration ?? TOAST_DURATION),
  );
  return { id, dismiss: () => dismissToast(id) };
}

/** Test helper: forgets every toast and timer. */
export function resetToasts() {
  closeTimers.forEach((timer) => clearTimeout(timer));
  removeTimers.forEach((timer) => clearTimeout(timer));
  closeTimers.clear();
  removeTimers.clear();
  emit([]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
