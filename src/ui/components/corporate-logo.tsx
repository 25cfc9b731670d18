import { css } from 'styled-system/css';
import type { Corporate } from '../../core/types';

/** The corporate's logo (a stored media), or its initials on a tinted square. */
export function CorporateLogo({
  corporate,
  size = 48,
}: {
  corporate: Pick<Corporate, 'nombre'> & { imagen?: Corporate['imagen'] };
  size?: number;
}) {
  const logo = corporate.imagen?.imagenLogo;
  const initials = corporate.nombre
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  if (logo) {
    return (
      <img
        src={`/api/media/${encodeURIComponent(logo)}`}
        alt=""
        width={size}
        height={size}
        className={css({ borderRadius: 'lg', objectFit: 'cover', flexShrink: 0, bg: 'white' })}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ width: size, height: size }}
      className={css({
        display: 'grid',
        placeItems: 'center',
        borderRadius: 'lg',
        bg: 'primary',
        color: 'primaryText',
        fontWeight: 'bold',
        flexShrink: 0,
      })}
    >
      {initials}
    </span>
  );
}
