/**
 * React DOM's client, started in a chunk of its own (vite.config.ts, group `react-dom`). React
 * DOM creates its sentinel errors when it starts; with DevTools attached (Lighthouse) each error
 * records a detailed stack, which makes V8 re-read the source of every function on the stack. Started
 * here, the stack is this small chunk's, not the application chunk's (~500 KB re-read).
 */
export { createRoot } from 'react-dom/client';
