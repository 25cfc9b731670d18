/**
 * Which sign-in the deployment uses (issue 22), on the users page: the built-in password, or
 * Firebase Authentication (where invitations also make the person's Firebase account).
 */
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { useAuthProvider } from '../../../lib/auth-provider';

export function SignInProviderNote() {
  const { t } = useTranslation('people');
  const provider = useAuthProvider();
  if (!provider) return null;
  return (
    <p
      data-testid="sign-in-provider"
      className={css({ color: 'muted', fontSize: 'sm', mt: -3, mb: 6, maxW: '48rem' })}
    >
      {provider.proveedor === 'firebase' ? t('users.providerFirebase') : t('users.providerBuiltin')}
    </p>
  );
}
