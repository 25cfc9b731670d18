/** The 403 page (spec §6): the user is not a member of the corporate; the corporate switch opens. */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { SelectCorporateModal } from '../../../components/select-corporate-modal';
import { button } from '../../../components/styles';
import { DashboardLayout } from '../../../layouts/dashboard-layout';

export function ForbiddenPage({ slug }: { slug: string }) {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(true);
  return (
    <DashboardLayout>
      <section
        className={css({ maxW: '32rem', mx: 'auto', mt: { base: 6, md: 16 }, textAlign: 'center' })}
      >
        <p className={css({ fontSize: '6xl', fontWeight: 'bold', color: 'muted', lineHeight: 1 })}>
          403
        </p>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'semibold', mt: 4, mb: 2 })}>
          {t('forbidden.title')}
        </h2>
        <p className={css({ color: 'muted', mb: 6 })}>{t('forbidden.body')}</p>
        <button type="button" className={button()} onClick={() => setOpen(true)}>
          {t('forbidden.choose')}
        </button>
      </section>
      {open ? <SelectCorporateModal currentSlug={slug} onClose={() => setOpen(false)} /> : null}
    </DashboardLayout>
  );
}
