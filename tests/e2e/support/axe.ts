/**
 * axe-core in the e2e specs: the page's WCAG violations as `rule: target (why), …` lines, so an
 * assertion `toEqual([])` prints what is wrong. axe is injected through the DevTools protocol
 * (`page.evaluate` of its source), which the page's CSP (script-src 'self') does not block.
 *
 * axe reads colours as they are at the moment it runs, so it waits for the page's finite
 * animations and transitions first: a dialog fading in or a button's colour transition, caught
 * half-way, blends to a contrast no one sees at rest (a CI run failed on 2.09:1, #dceaf7 on
 * #6da6e0, a primary button mid-transition). Endless ones (a spinner) are not waited for.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeOptions {
  /** Only this part of the page (a CSS selector). Default: the whole page. */
  include?: string;
  /** Rule tags. Default: WCAG 2 A and AA. */
  tags?: readonly string[];
  /** Only serious and critical violations. Default: every violation. */
  seriousOnly?: boolean;
}

export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  // Until two frames in a row start no finite animation: a transition can begin a frame after
  // the state that causes it (a dialog mounted closed, then opened), and a wait that looked only
  // once let axe read a button half faded in (a CI run's 2.09:1, #dceaf7 on #6da6e0, in the
  // notification preferences' dialog). At most ~3 s of frames.
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const running = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState !== 'finished' &&
            animation.effect?.getComputedTiming().endTime !== Infinity,
        );
    for (let quiet = 0, frames = 0; quiet < 2 && frames < 180; frames++) {
      await frame();
      const now = running();
      if (now.length === 0) quiet++;
      else {
        quiet = 0;
        await Promise.all(now.map((animation) => animation.finished.catch(() => undefined)));
      }
    }
  });
  await page.evaluate(axeSource);
  return page.evaluate(
    async ({ include, tags, seriousOnly }) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: unknown,
              options: unknown,
            ) => Promise<{
              violations: {
                id: string;
                impact: string | null;
                nodes: { target: string[]; any: { message: string }[] }[];
              }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
      });
      return result.violations
        .filter((v) => !seriousOnly || v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.any[0]?.message ?? ''})`).join(', ')}`,
        );
    },
    {
      include: options.include ?? null,
      tags: [...(options.tags ?? ['wcag2a', 'wcag2aa'])],
      seriousOnly: options.seriousOnly ?? false,
    },
  );
}
