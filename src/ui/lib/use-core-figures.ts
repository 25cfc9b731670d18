/**
 * Figures a screen shows, built by the core worker (issue 20, the card's worker): a price in the
 * chosen currency, an area in the chosen unit, a status's label and colour. The screen names what
 * it needs by a `key` (the inputs and the display settings, as text) and how to ask the worker;
 * the hook asks again whenever the key changes and keeps showing the last answer meanwhile, so a
 * currency switch never blanks the figures. `engine` says where the answer was built ('worker',
 * or 'direct' where no Worker exists); pages mark it on the DOM for the tests.
 */

import { startTransition, useEffect, useRef, useState } from 'react';
import { getCoreClient, type CoreClient } from '../../workers/core-client';

export interface CoreFigures<T> {
  /** The last answer; null until the first. */
  data: T | null;
  engine: CoreClient['mode'];
  /** Counts answers. */
  version: number;
  error: Error | null;
}

export function useCoreFigures<T>(
  key: string | null,
  ask: (client: CoreClient, signal: AbortSignal) => Promise<T>,
): CoreFigures<T> {
  const [state, setState] = useState<Omit<CoreFigures<T>, 'engine'>>({
    data: null,
    version: 0,
    error: null,
  });
  // The latest `ask` (a new closure each render); the key says when to call it.
  const askRef = useRef(ask);
  askRef.current = ask;
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const { signal } = controller;
    askRef
      .current(getCoreClient(), signal)
      .then((data) => {
        if (signal.aborted) return;
        startTransition(() => setState((s) => ({ data, version: s.version + 1, error: null })));
      })
      .catch((error: unknown) => {
        if (signal.aborted) return;
        if (error instanceof DOMException && error.name === 'AbortError') return;
        setState((s) => ({ ...s, error: error as Error }));
      });
    return () => controller.abort();
  }, [key]);
  return { ...state, engine: getCoreClient().mode };
}
