import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { publicQuotationQuery } from '../../../features/quotes/api/quotes-data';
import { PublicQuotationPage } from '../../../features/quotes/components/public-quotation';
import { CorporateLabelsProvider } from '../../../lib/corporate-labels';
import { LanguageSwitch, useVisitorLanguage } from '../../../lib/visitor-language';
import { onlyValidated } from '../../../lib/route-search';

/**
 * The buyer's shared quotation. On a bilingual corporate it opens in the language the adviser
 * chose for the link (`?lang=en`), else the visitor's (lib/visitor-language.tsx), with the EN/ES
 * switch above it (not printed); the corporate's own labels follow (issue 19).
 *
 * No landing-page redirect here (spec §3 `reedireccionarLandingPage`), unlike the development's
 * public availability and simulator: this link is one buyer's own document — the unit, price and
 * plan an adviser prepared for them — that the development's marketing page cannot show, so
 * sending them away would lose it. The redirect is for visitors browsing the development.
 */
function PublicQuotation() {
  const { token } = Route.useParams();
  const { lang } = Route.useSearch();
  const { data } = useQuery(publicQuotationQuery(token));
  const multiIdioma = data ? data.corporativo.multiIdioma === true : undefined;
  useVisitorLanguage(multiIdioma, lang);
  return (
    <CorporateLabelsProvider corporate={data?.corporativo.slug ?? null}>
      {multiIdioma ? (
        <div
          className={css({
            display: 'flex',
            justifyContent: 'flex-end',
            px: 4,
            pt: 3,
            bg: 'bg',
            '@media print': { display: 'none' },
          })}
        >
          <LanguageSwitch />
        </div>
      ) : null}
      <PublicQuotationPage token={token} />
    </CorporateLabelsProvider>
  );
}

export const Route = createFileRoute('/public/cotizacion/$token')({
  validateSearch: onlyValidated((search: Record<string, unknown>): { lang?: 'es' | 'en' } =>
    search.lang === 'en' || search.lang === 'es' ? { lang: search.lang } : {},
  ),
  component: PublicQuotation,
});
