/**
 * Toasts: short messages that close themselves after 5000 ms (spec §9). Errors are announced
 * assertively (role=alert), everything else politely (role=status). Call from anywhere:
 * `toast.error(errorMessage(e))`, `toast.success(t('errors:linkCopied'))`.
 */

export const TOAST_DURATION_MS = 5000;

export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  listeners.forEach((l) => l());
}

export function dismissToast(id: number) {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, message: string): number {
  // The same message twice in a row (a burst of failing calls) shows once: the caller gets the
  // shown toast's id, so dismissing it by id closes what is on screen.
  const same = toasts.find((t) => t.message === message && t.kind === kind);
  if (same) return same.id;
  const id = nextId++;
  toasts = [...toasts.slice(-3), { id, kind, message }];
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_DURATION_MS),
  );
  emit();
  return id;
}

export const toast = {
  info: (message: string) => show('info', message),
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

/** For useSyncExternalStore. */
export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}
