/**
 * The developments list's top-bar actions (spec §2: the list shows the quotation report button
 * in the top bar). The quotations feature puts its button here.
 */

import type { ReactNode } from 'react';
import { TopBarActions } from '../../layouts/corporate-context';
import { QuoteReportButton } from '../quotes/quote-report-button';

export function DevelopmentsTopBarActions({ children }: { children?: ReactNode }) {
  return (
    <TopBarActions>
      <QuoteReportButton />
      {children}
    </TopBarActions>
  );
}
