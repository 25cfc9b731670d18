/**
 * Focus after the sign-in (WCAG 2.4.3): the sign-in page is a page of its own and leaves for the
 * application with a full navigation, where focus would start on the body. The page marks the
 * arrival for this tab; the application's route focus (route-focus.ts) takes the mark once and
 * starts at the page's heading, as after any navigation inside it.
 */

const KEY = 'vitrina:focus-heading';

/** Called by the sign-in page just before it leaves. */
export function markArrival(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Without storage focus starts on the body, as on any first load.
  }
}

/** True once after a marked arrival (the mark is removed). */
export function takeArrival(): boolean {
  try {
    const marked = sessionStorage.getItem(KEY) === '1';
    sessionStorage.removeItem(KEY);
    return marked;
  } catch {
    return false;
  }
}
