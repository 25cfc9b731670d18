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
 * cancelled dialog gives focus back to its opener itself). Calling it for an action that did not
 * happen would leave it waiting, a frame at a time, for a list that is not going to change.
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

export function keepRowFocus(button: HTMLElement, options: RowFocusOptions = {}): () => void {
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
  return () => {
    const start = performance.now();
    const step = () => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) {
        const el = target();
        if (el) {
          el.focus();
          return;
        }
      } else if (active !== button && !active.closest('[role="dialog"]')) {
        // Focus is somewhere else on purpose (the person moved on): it stays there.
        return;
      }
      // The button (or the dialog it opened) still has focus: the list is not refreshed yet.
      if (performance.now() - start < WAIT_MS) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
}
