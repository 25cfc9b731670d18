// A development's public page sent with its first paint (server/public/first-paint.ts) starts the
// app once that paint is on screen: evaluating the app's script is the page's longest task, and a
// browser that runs it first (it often has the script by then) shows nothing until it is done.
// What the app needs waits in `<template id="after-paint">` (its entry, `data-entry`, and the
// page's preloads: its data, route chunks and texts), so the first frame has the bandwidth to
// itself; they all start together after it. A tab opened in the background draws no frames: it
// starts at once.
let started = false;
const start = () => {
  if (started) return;
  started = true;
  const later = document.getElementById('after-paint');
  if (later instanceof HTMLTemplateElement) document.head.append(later.content);
  // The entry is imported in a task of its own: the preloads' start and the entry's module
  // graph in one task made a long one.
  const entry = document.querySelector('link[rel="modulepreload"][data-entry]');
  if (entry instanceof HTMLLinkElement) setTimeout(() => void import(entry.href), 0);
};
if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start, 0));
