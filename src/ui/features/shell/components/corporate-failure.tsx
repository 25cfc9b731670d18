/**
 * A corporate that cannot be shown: 'No se encontró corporativo' for an unknown slug (the
 * corporate route's not-found, or a 404 that reached its error boundary), else the error's
 * message in the user's language.
 */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { DashboardLayout } from '../../../layouts/dashboard-layout';
import { ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';

export function CorporateFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('errors');
  const notFound = error === null || (error instanceof ApiRequestError && error.status === 404);
  return (
    <DashboardLayout>
      <p
        role="alert"
        className={css({ maxW: '32rem', mx: 'auto', mt: 16, textAlign: 'center', fontSize: 'lg' })}
      >
        {notFound ? t('corporateNotFound') : errorMessage(error)}
      </p>
    </DashboardLayout>
  );
}
