/**
 * While the rest of a development's clusters loads behind the first page (issue 21): a status
 * over the page's bottom edge rather than a line above the grid, so its going moves nothing
 * (the line's removal pushed the whole view up by its height: a layout shift on every load).
 * It shows only once the rest has taken {@link LOADING_REST_DELAY_MS}: a rest that comes at
 * once (the usual case, and every development whose clusters all fit the first page, which the
 * client learns from the empty rest) flashes nothing, and no passing status is what the page
 * painted largest.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';

/** How long the rest may take before the page says it is still coming. */
export const LOADING_REST_DELAY_MS = 800;

export function LoadingRest({ loaded }: { loaded: number }) {
  const { t } = useTranslation('inventory');
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), LOADING_REST_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!late) return null;
  return (
    <p
      role="status"
      data-testid="loading-rest"
      className={css({
        position: 'fixed',
        insetInline: 0,
        bottom: 4,
        zIndex: 20,
        w: 'fit-content',
        maxW: 'calc(100% - 2rem)',
        mx: 'auto',
        px: 4,
        py: 2,
        bg: 'surface',
        color: 'text',
        fontSize: 'sm',
        borderRadius: 'full',
        border: '1px solid',
        borderColor: 'border',
        boxShadow: '0 8px 24px rgba(10,20,35,0.18)',
        // Over the grid for a moment: taps go to what is under it.
        pointerEvents: 'none',
      })}
    >
      {t('availability.loadingRest', { count: loaded })}
    </p>
  );
}
