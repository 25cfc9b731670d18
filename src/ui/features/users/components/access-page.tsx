/**
 * `/acceso?token=…`: the invited person sets a password (the spec's rule shown live) from the
 * mailed single-use link, then signs in and lands in the corporate that invited them.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { useSessionActor } from '../../../session';
import { useLinkInfo, useSetPasswordFromLink, type LinkKind } from '../api/people';
import { AuthCard } from './auth-card';
import { alert, fieldStack, notice } from './form-styles';
import { PasswordField, passwordReady } from './password-field';

/** What a link error says: expired, or invalid/used. */
function linkProblem(error: unknown, kind: LinkKind, t: (k: string) => string) {
  const code = (error as { errorCode?: string } | null)?.errorCode;
  const base = kind === 'invitacion' ? 'access' : 'recovery';
  return code === 'TOKEN_EXPIRED' ? t(`${base}.expired`) : t(`${base}.invalid`);
}

/** Sets the password from a link of either kind; shared by /acceso and /recuperar. */
export function SetPasswordForm({ kind, token }: { kind: LinkKind; token: string }) {
  const { t, i18n } = useTranslation('people');
  const info = useLinkInfo(kind, token);
  const save = useSetPasswordFromLink(kind);
  const session = useSessionActor();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);

  if (info.isPending) return <p className={css({ color: 'muted' })}>{t('auth.loading')}</p>;
  if (info.isError)
    return (
      <p role="alert" className={alert}>
        {linkProblem(info.error, kind, t)}
      </p>
    );
  const link = info.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!passwordReady(password, confirm) || save.isPending) return;
    save.mutate(
      { token, password, idioma: i18n.language === 'en' ? 'en' : 'es' },
      {
        onSuccess: (res) =>
          session.send({
            type: 'session.signIn',
            email: res.email,
            password,
            redirect: res.corporativo ? `/corporativos/${res.corporativo.slug}` : null,
          }),
      },
    );
  };
  const saveError = save.error
    ? ['TOKEN_INVALID', 'TOKEN_EXPIRED'].includes(
        (save.error as { errorCode?: string }).errorCode ?? '',
      )
      ? linkProblem(save.error, kind, t)
      : errorMessage(save.error)
    : null;
  return (
    <form onSubmit={submit} noValidate className={fieldStack}>
      <p className={notice}>
        {kind === 'invitacion'
          ? link.corporativo
            ? t('access.intro', {
                nombre: link.nombre,
                corporativo: link.corporativo.nombre,
                email: link.email,
              })
            : t('access.introNoCorporate', { nombre: link.nombre, email: link.email })
          : t('recovery.resetIntro', { email: link.email })}
      </p>
      <input
        type="email"
        name="username"
        autoComplete="username"
        value={link.email}
        readOnly
        hidden
      />
      <PasswordField
        value={password}
        onChange={setPassword}
        confirm={confirm}
        onConfirmChange={setConfirm}
        showErrors={submitted}
      />
      {saveError ? (
        <p role="alert" className={alert}>
          {saveError}
        </p>
      ) : null}
      <button type="submit" aria-disabled={save.isPending} className={button({ size: 'lg' })}>
        {save.isPending
          ? t('access.saving')
          : kind === 'invitacion'
            ? t('access.submit')
            : t('recovery.submit')}
      </button>
    </form>
  );
}

export function AccessPage({ token }: { token?: string | undefined }) {
  const { t } = useTranslation('people');
  return (
    <AuthCard title={t('access.title')}>
      {token ? (
        <SetPasswordForm kind="invitacion" token={token} />
      ) : (
        <p role="alert" className={alert}>
          {t('access.missingToken')}
        </p>
      )}
    </AuthCard>
  );
}
