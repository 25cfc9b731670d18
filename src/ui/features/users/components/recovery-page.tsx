/**
 * `/recuperar`: "¿Olvidaste tu contraseña?" asks for the e-mail (the answer is the same whether
 * or not it has an account); `/recuperar?token=…` (the mailed link) sets a new password, which
 * ends every other session, and signs in.
 */
import { Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { useRequestRecovery } from '../api/people';
import { SetPasswordForm } from './access-page';
import { AuthCard } from './auth-card';
import { alert, fieldStack, input, label, linkStyle, notice } from './form-styles';

function RequestForm() {
  const { t } = useTranslation('people');
  const request = useRequestRecovery();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const emailId = useId();
  const errorId = useId();
  const empty = submitted && !email.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const value = email.trim();
    if (!value || request.isPending) return;
    request.mutate(value, { onSuccess: () => setSentTo(value) });
  };
  return (
    <form onSubmit={submit} noValidate className={fieldStack}>
      <p className={css({ color: 'muted' })}>{t('recovery.requestIntro')}</p>
      <div>
        <label htmlFor={emailId} className={label}>
          {t('recovery.email')}
        </label>
        <input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={empty}
          aria-describedby={empty ? errorId : undefined}
          className={input}
        />
        {empty ? (
          <p id={errorId} className={css({ color: 'danger', fontSize: 'sm', mt: 1 })}>
            {t('registration.required')}
          </p>
        ) : null}
      </div>
      <div role="status">
        {sentTo ? <p className={notice}>{t('recovery.sent', { email: sentTo })}</p> : null}
      </div>
      {request.error ? (
        <p role="alert" className={alert}>
          {errorMessage(request.error)}
        </p>
      ) : null}
      <button type="submit" aria-disabled={request.isPending} className={button({ size: 'lg' })}>
        {request.isPending ? t('recovery.sending') : t('recovery.send')}
      </button>
    </form>
  );
}

export function RecoveryPage({ token }: { token?: string | undefined }) {
  const { t } = useTranslation('people');
  return (
    <AuthCard title={token ? t('recovery.resetTitle') : t('recovery.requestTitle')}>
      {token ? (
        <>
          <SetPasswordForm kind="recuperacion" token={token} />
          <p className={css({ mt: 4, fontSize: 'sm' })}>
            <Link to="/recuperar" className={linkStyle}>
              {t('recovery.askAgain')}
            </Link>
          </p>
        </>
      ) : (
        <RequestForm />
      )}
    </AuthCard>
  );
}
