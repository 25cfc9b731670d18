import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { rootRedirect } from '../../../../core/navigation';
import { LoadingScreen } from '../../../components/loading-screen';
import { LoginPrompt } from '../../../components/login-prompt';
import { useSession } from '../../../session';

/** Root (spec §2): a signed-in user goes to their corporate (one) or the corporates list (several). */
export function RootPage() {
  const { t } = useTranslation('shell');
  const target = useSession((s) =>
    s.hasTag('signedIn') && s.context.user
      ? rootRedirect('/', s.context.user, s.context.corporates)
      : null,
  );
  const waiting = useSession(
    (s) => s.hasTag('checking') || s.hasTag('busy') || s.hasTag('signedIn'),
  );
  const router = useRouter();
  useEffect(() => {
    if (target) void router.navigate({ href: target, replace: true });
  }, [router, target]);
  return target || waiting ? (
    <LoadingScreen fullScreen message={t('session.checking')} />
  ) : (
    <LoginPrompt />
  );
}
