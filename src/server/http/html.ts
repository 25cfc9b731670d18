/**
 * Text put into HTML the server writes (the public pages' first paint and preloads, e-mails, the
 * demo's drawings): `&`, `<`, `>` and both quotes as entities, so a name an administrator typed
 * reads as text in an element or an attribute.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
