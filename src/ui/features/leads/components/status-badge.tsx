/** A lead status (`wsObtenerStatusLeads`) as a coloured pill; nothing for a lead without one. */

import { css } from 'styled-system/css';
import type { LeadStatus } from '../../../../core/types';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { textOn } from '../../../theme/contrast';

export function StatusBadge({ status }: { status: LeadStatus | undefined }) {
  const corporateLabel = useCorporateLabel();
  if (!status) return null;
  return (
    <span
      data-testid="lead-status"
      className={css({
        display: 'inline-block',
        px: 2,
        py: '2px',
        borderRadius: 'full',
        fontSize: 'xs',
        fontWeight: 'semibold',
        whiteSpace: 'nowrap',
      })}
      style={{ background: status.color, color: textOn(status.color) }}
    >
      {corporateLabel('statusLead', status.nombre)}
    </span>
  );
}
