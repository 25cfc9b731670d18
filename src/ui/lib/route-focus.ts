/**
 * Focus after a navigation (issue 19, WCAG 2.4.3): when the path changes, focus moves to the new
 * page's heading (`h1` with tabIndex -1), so a keyboard or screen-reader user starts at the top
 * of the page instead of on a link that is gone or on the body. Sign-in is a navigation too, so
 * focus starts in the page after it. A page that put focus somewhere itself (a dialog, a field
 * it focuses) keeps it; so does a link inside the content that is still there after the
 * navigation (a development's tab, a client in the list beside its detail), where the user goes
 * on from where they were; a change of the search only (filters) does not move focus.
 */

import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { takeArrival } from './arrival-focus';

/** The heading that receives focus: the page's one `h1` that accepts programmatic focus. */
const HEADING = 'h1[tabindex="-1"]';
/** How long to wait for the page's heading after the route resolved (lazy pages, the session). */
const WAIT_MS = 5000;

function visible(el: Element): boolean {
  return el instanceof HTMLElement && el.getClientRects().length > 0;
}

/**
 * Waits for the page's heading, then focuses it unless focus was moved somewhere on purpose
 * meanwhile. `from` is what had focus when the navigation started. Answers a cancel.
 */
export function focusHeadingWhenShown(from: Element | null, now = () => performance.now()) {
  const start = now();
  let frame = 0;
  const inContent = (el: Element) => Boolean(el.closest('main'));
  const free = () => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) return true;
    return active === from && !inContent(active);
  };
  const step = () => {
    if (!free()) return;
    const heading = [...document.querySelectorAll(HEADING)].find(visible);
    if (heading instanceof HTMLElement) {
      heading.focus({ preventScroll: true });
      return;
    }
    if (now() - start < WAIT_MS) frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}

/** Moves focus to the page heading on every path change of the router. */
export function useRouteFocus(): void {
  const router = useRouter();
  useEffect(() => {
    let from: Element | null = null;
    // Arrived from the sign-in page (a full navigation): the page's heading, as after a link.
    let cancel = takeArrival() ? focusHeadingWhenShown(null) : () => {};
    const offBefore = router.subscribe('onBeforeNavigate', () => {
      from = document.activeElement;
    });
    const offResolved = router.subscribe('onResolved', (event) => {
      if (!event.fromLocation || !event.pathChanged) return;
      cancel();
      cancel = focusHeadingWhenShown(from);
    });
    return () => {
      offBefore();
      offResolved();
      cancel();
    };
  }, [router]);
}
