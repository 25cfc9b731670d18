/**
 * Focus after a row action (WCAG 2.4.3): a one-click action on a row of a list (a guest marked
 * arrived, a member deactivated, an invitation revoked) may take its own button away once it
 * succeeded, and focus would fall to the body, the top of the page. `keepRowFocus(button)`, taken
 * when the button is pressed (before any dialog it opens), answers what to call once the action
 * succeeded: when the refreshed list has taken the button away, focus moves to
 *   1. the control that replaced it in its row (`[data-row-action=<replacement>]`),
 *   2. else the row's name (`[data-row-name]`, with tabIndex -1),
 *   3. else, the row gone, the name of the row that followed it or, the last one, preceded it,
 *   4. else `fallback()` (the list's heading or tab).
 * A button that stays keeps focus, focus the person moved elsewhere meanwhile stays there, and a
 * pending, failed or cancelled action calls nothing: its button keeps focus (so it is not
 * `disabled` while pending, which would drop focus to the body too, but `aria-disabled`; a
 * cancelled dialog gives focus back to its opener itself). It waits by watching the page's
 * changes (a MutationObserver), not a frame at a time, so an action whose button stays costs
 * nothing while it waits. One watch at a time: a new action ends the last one's.
 * Rows are `[data-row]` elements, siblings of one another.
 */

/** How long to wait for the refreshed list after the action succeeded. */
const WAIT_MS = 10_000;

export interface RowFocusOptions {
  /** `data-row-action` of the control that takes the button's place in the row. */
  replacement?: string;
  /** Where focus goes when no row is left. */
  fallback?: () => HTMLElement | null;
}

/** The watch of the last action that succeeded, if it is still waiting. */
let watching: { stop: () => void } | null = null;

export function keepRowFocus(button: HTMLElement, options: RowFocusOptions = {}): () => void {
  // A new action: an earlier one's watch ends (it would move focus for a row it no longer owns).
  watching?.stop();
  const row = button.closest<HTMLElement>('[data-row]');
  const neighbours = [row?.nextElementSibling, row?.previousElementSibling];
  const target = (): HTMLElement | null => {
    if (row?.isConnected) {
      const replacement = options.replacement
        ? row.querySelector<HTMLElement>(`[data-row-action="${options.replacement}"]`)
        : null;
      return replacement ?? row.querySelector<HTMLElement>('[data-row-name]');
    }
    const near = neighbours.find((el) => el?.isConnected && el.matches('[data-row]'));
    return near?.querySelector<HTMLElement>('[data-row-name]') ?? options.fallback?.() ?? null;
  };
  /** Whether focus is settled: moved to the target, left where it is, or elsewhere on purpose. */
  const settle = (): boolean => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) {
      const el = target();
      if (!el) return false;
      el.focus();
      return true;
    }
    // The button (or the dialog it opened) still has focus: the list is not refreshed yet.
    if (active === button || active.closest('[role="dialog"]')) return false;
    // Focus is somewhere else on purpose (the person moved on): it stays there.
    return true;
  };
  return () => {
    // Looked at in the frame after the action, then in the frame after each change of the page
    // (not in every frame: a button that stays costs nothing while it waits), for at most
    // WAIT_MS. A frame, not the change itself: a dialog's removal is a change, and its effect
    // that gives focus back to its opener runs after it.
    let frame = 0;
    let done = false;
    const look = () => {
      frame = 0;
      if (!done && settle()) stop();
    };
    const observer = new MutationObserver(() => {
      if (!frame && !done) frame = requestAnimationFrame(look);
    });
    const timer = window.setTimeout(() => stop(), WAIT_MS);
    const stop = () => {
      done = true;
      observer.disconnect();
      window.clearTimeout(timer);
      if (frame) cancelAnimationFrame(frame);
      if (watching === watch) watching = null;
    };
    const watch = { stop };
    watching?.stop();
    watching = watch;
    observer.observe(document.body, { childList: true, subtree: true });
    frame = requestAnimationFrame(look);
  };
}
