/**
 * A link to a path of the application given as a string (`/corporativos/x/desarrollos`): a real
 * `<a href>` (new tab, copy link work) that navigates through the router on a plain click. Used
 * for paths built at run time, including routes other features register.
 */

import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useRouter } from '@tanstack/react-router';

export function AppLink({
  href,
  onClick,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter();
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (
      e.defaultPrevented ||
      e.button !== 0 ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.altKey ||
      props.target
    )
      return;
    e.preventDefault();
    void router.navigate({ href });
  };
  return <a href={href} onClick={handle} {...props} />;
}
