/**
 * The corporate webhook's HTML, made safe right before it is inserted (issue 18; ASVS 1.3.1,
 * 3.4.3): DOMPurify with a small allow-list — p, br, ul, ol, li, strong, em, code, and a with an
 * http, https or mailto href only — so no script, event handler, style, SVG or MathML survives.
 * Links open in a new tab without access to this page (`rel="noopener noreferrer nofollow"`).
 */
import DOMPurify, { type Config } from 'dompurify';

const CONFIG: Config = {
  ALLOWED_TAGS: ['p', 'br', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'a'],
  ALLOWED_ATTR: ['href'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  USE_PROFILES: false,
  KEEP_CONTENT: true,
  RETURN_TRUSTED_TYPE: false,
};

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** One DOMPurify instance of our own, so its link hook touches no other use of the library. */
function instance() {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      if (node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    }
  });
  return purifier;
}

/** The webhook's HTML with only the allow-list left. */
export function sanitizeChatHtml(html: string): string {
  return instance().sanitize(html, CONFIG);
}
