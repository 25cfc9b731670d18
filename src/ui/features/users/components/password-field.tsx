/**
 * A new password with the spec's rule shown live (§5 password helper: an uppercase letter, a
 * digit, more than 8 characters), each check ticked as the person types, and a confirmation.
 * The checks are the core's (`passwordChecks`), the same the server applies.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { passwordChecks, type PasswordChecks } from '../../../../core/user';
import { input, label } from './form-styles';
import { PasswordReveal } from '../../../components/password-reveal';

const RULES: (keyof PasswordChecks)[] = ['mayuscula', 'digito', 'longitud'];

export function PasswordField({
  value,
  onChange,
  confirm,
  onConfirmChange,
  showErrors,
}: {
  value: string;
  onChange: (value: string) => void;
  confirm: string;
  onConfirmChange: (value: string) => void;
  /** After a submit: unmet rules and a mismatch are marked invalid. */
  showErrors: boolean;
}) {
  const { t } = useTranslation('people');
  const [visible, setVisible] = useState(false);
  const id = useId();
  const rulesId = useId();
  const confirmId = useId();
  const mismatchId = useId();
  const checks = passwordChecks(value);
  const weak = !RULES.every((r) => checks[r]);
  const mismatch = confirm.length > 0 && confirm !== value;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}>
      <div>
        <label htmlFor={id} className={label}>
          {t('password.label')}
        </label>
        <div className={css({ position: 'relative' })}>
          <input
            id={id}
            name="new-password"
            type={visible ? 'text' : 'password'}
            autoComplete="new-password"
            required
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-describedby={rulesId}
            aria-invalid={showErrors && weak}
            className={`${input} ${css({ pr: 24 })}`}
          />
          <PasswordReveal
            visible={visible}
            onToggle={() => setVisible((v) => !v)}
            showLabel={t('password.show')}
            hideLabel={t('password.hide')}
          />
        </div>
        <div id={rulesId} className={css({ mt: 2, fontSize: 'sm' })}>
          <p className={css({ color: 'muted', mb: 1 })}>{t('password.rulesTitle')}</p>
          <ul data-testid="password-rules" className={css({ display: 'grid', gap: 1 })}>
            {RULES.map((rule) => (
              <li
                key={rule}
                data-rule={rule}
                data-met={checks[rule]}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: 2,
                  color: checks[rule] ? 'success' : showErrors ? 'danger' : 'muted',
                })}
              >
                <span aria-hidden="true" className={css({ w: 4, textAlign: 'center' })}>
                  {checks[rule] ? '✓' : '•'}
                </span>
                <span>
                  {t(`password.rules.${rule}`)}
                  <span className={css({ srOnly: true })}>
                    {`: ${checks[rule] ? t('password.met') : t('password.missing')}`}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div>
        <label htmlFor={confirmId} className={label}>
          {t('password.confirm')}
        </label>
        <input
          id={confirmId}
          name="confirm-password"
          type={visible ? 'text' : 'password'}
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => onConfirmChange(e.target.value)}
          aria-invalid={mismatch || (showErrors && confirm !== value)}
          aria-describedby={mismatch ? mismatchId : undefined}
          className={input}
        />
        {mismatch ? (
          <p id={mismatchId} className={css({ color: 'danger', fontSize: 'sm', mt: 1 })}>
            {t('password.mismatch')}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The password may be submitted: every rule met and the confirmation equal. */
export function passwordReady(value: string, confirm: string): boolean {
  const c = passwordChecks(value);
  return c.mayuscula && c.digito && c.longitud && value === confirm;
}
