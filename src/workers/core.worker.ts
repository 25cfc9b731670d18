/**
 * The domain-core worker: one entry, everything the UI may need from `src/core` off the main
 * thread. Reach it through `core-client.ts`.
 */

import { expose } from 'comlink';
import { createCoreApi } from './core-api';

const api = createCoreApi({ yieldBetweenChunks: false });

/** The worker's API, for `wrap<CoreApi>()`; import it with `import type` only. */
export type CoreApi = typeof api;

// Explicit `self`: under @vitest/web-worker the implicit endpoint is not the worker scope.
expose(api, self);
