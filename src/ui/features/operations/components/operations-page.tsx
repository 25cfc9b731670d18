/**
 * Operations (issue 12): the background work of the platform for its administrators — each
 * consumer with its state and lag, parked events, timers and outbound messages that failed or
 * wait — and a retry for each failed or parked row, after a confirmation. The overview refreshes
 * every 10 s; a retry refreshes it at once. Anyone else sees a 403 note (the API refuses them too).
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { mayOperate } from '../../../../core/permissions';
import { Modal } from '../../../components/modal';
import { button, card } from '../../../components/styles';
import { DashboardLayout } from '../../../layouts/dashboard-layout';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useSession } from '../../../session';
import {
  type ConsumerRow,
  type MessageRow,
  type OperationsOverview,
  type ParkedRow,
  type RetryTarget,
  type TimerRow,
  useOperations,
  useRetry,
} from '../api/operations';
import { WorkTable, type Column } from './work-table';

type Tone = 'ok' | 'info' | 'warn' | 'bad' | 'neutral';

const TONES: Record<Tone, string> = {
  ok: css({ bg: 'rgba(46,125,50,0.12)', color: '#1b5e20' }),
  info: css({ bg: 'rgba(31,111,235,0.10)', color: '#174ea6' }),
  warn: css({ bg: 'rgba(191,135,0,0.16)', color: '#7a4f00' }),
  bad: css({ bg: 'rgba(198,40,40,0.12)', color: '#b71c1c' }),
  neutral: css({ bg: 'rgba(107,114,128,0.14)', color: '#374151' }),
};

const badge = css({
  display: 'inline-block',
  px: 2.5,
  py: 0.5,
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  whiteSpace: 'nowrap',
});

const CONSUMER_TONES: Record<ConsumerRow['state'], Tone> = {
  active: 'info',
  idle: 'ok',
  retrying: 'warn',
  standby: 'neutral',
  error: 'bad',
  stopped: 'warn',
};
const TIMER_TONES: Record<TimerRow['state'], Tone> = {
  scheduled: 'neutral',
  firing: 'info',
  done: 'ok',
  failed: 'warn',
  parked: 'bad',
};
const MESSAGE_TONES: Record<MessageRow['state'], Tone> = {
  pending: 'neutral',
  sending: 'info',
  sent: 'ok',
  failed: 'warn',
  dead: 'bad',
};
const EVENT_TONES: Record<ParkedRow['state'], Tone> = {
  parked: 'bad',
  retry: 'info',
  resolved: 'ok',
};

function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span className={cx(badge, TONES[tone])}>{children}</span>;
}

const mono = css({ fontFamily: 'mono', fontSize: 'xs', overflowWrap: 'anywhere' });
const errorText = css({
  color: 'danger',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  lineClamp: 4,
  maxW: '32rem',
});
/** The same, muted: the work has recovered since (two whole classes: atomic colours would tie). */
const pastErrorText = css({
  color: 'muted',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  lineClamp: 4,
  maxW: '32rem',
});
const nowrap = css({ whiteSpace: 'nowrap' });
/** Table columns (≥ 1024 px) wide enough for a key or an id, and for an error's words. */
const wideColumn = css({ lg: { minW: '11rem' } });
const errorColumn = css({ lg: { minW: '11rem' } });

/** A state badge, with the next attempt's time under it while a failure waits to be retried. */
function StateCell({ badge, next }: { badge: ReactNode; next: string | null }) {
  const { t } = useTranslation('operations');
  return (
    <>
      {badge}
      {next ? (
        <span className={css({ display: 'block', fontSize: 'xs', color: 'muted', mt: 1 })}>
          {t('nextAttemptAt', { time: next })}
        </span>
      ) : null}
    </>
  );
}

/** An error text; `past` (the work has recovered since) shows it muted instead of red. */
function ErrorCell({ text, past = false }: { text: string | null; past?: boolean }) {
  const { t } = useTranslation('operations');
  if (!text) return <span className={css({ color: 'muted' })}>{t('none')}</span>;
  return (
    <span className={past ? pastErrorText : errorText} title={text}>
      {text}
    </span>
  );
}

/** A consumer that needs a look: its loop fails, a handler is being retried, or events are parked. */
const troubledConsumer = (c: ConsumerRow) =>
  c.state === 'error' || c.state === 'retrying' || c.failing !== null || c.parked > 0;

/**
 * The platform's page belongs to no corporate, so its times are the device's own, and the zone
 * is named beside them (they were UTC with no label, unlike every other screen).
 */
const DEVICE_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function OperationsPage() {
  const user = useSession((s) => s.context.user);
  const allowed = mayOperate(user);
  return (
    <DashboardLayout>
      <div className={css({ maxW: '90rem', mx: 'auto' })}>
        {allowed ? <Operations /> : <NotAllowed />}
      </div>
    </DashboardLayout>
  );
}

function NotAllowed() {
  const { t } = useTranslation('operations');
  return (
    <section className={css({ maxW: '32rem', mx: 'auto', mt: { base: 6, md: 16 } })}>
      <p className={css({ fontSize: '6xl', fontWeight: 'bold', color: 'border', lineHeight: 1 })}>
        403
      </p>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'semibold', mt: 4, mb: 2 })}>
        {t('forbiddenTitle')}
      </h2>
      <p className={css({ color: 'muted' })}>{t('forbiddenBody')}</p>
    </section>
  );
}

function Operations() {
  const { t, i18n } = useTranslation('operations');
  const query = useOperations(true);
  const [confirming, setConfirming] = useState<RetryTarget | null>(null);
  const data = query.data;

  return (
    <>
      <header
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 4,
          mb: 6,
        })}
      >
        <div className={css({ maxW: '48rem' })}>
          <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: '-0.01em' })}>
            {t('title')}
          </h2>
          <p className={css({ color: 'muted', mt: 1 })}>{t('subtitle')}</p>
          {data ? (
            <p
              data-testid="operations-read-at"
              className={css({ color: 'muted', fontSize: 'xs', mt: 2 })}
            >
              {t('readAt', {
                time: formatDateTime(data.generatedAt, i18n.language, DEVICE_ZONE),
                zone: DEVICE_ZONE,
                instance: data.instanceId,
              })}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
          aria-busy={query.isFetching}
        >
          {query.isFetching ? t('refreshing') : t('refresh')}
        </button>
      </header>
      {data ? (
        <Overview data={data} onRetry={setConfirming} />
      ) : query.isError ? (
        <div role="alert" className={cx(card(), css({ p: 6 }))}>
          <p>{t('loadFailed', { message: errorMessage(query.error) })}</p>
          <button
            type="button"
            className={cx(button(), css({ mt: 4 }))}
            onClick={() => void query.refetch()}
          >
            {t('tryAgain')}
          </button>
        </div>
      ) : (
        <p role="status" className={css({ color: 'muted', py: 10, textAlign: 'center' })}>
          {t('loading')}
        </p>
      )}
      {confirming ? <ConfirmRetry target={confirming} onClose={() => setConfirming(null)} /> : null}
    </>
  );
}

function Overview({
  data,
  onRetry,
}: {
  data: OperationsOverview;
  onRetry: (target: RetryTarget) => void;
}) {
  const { t, i18n } = useTranslation('operations');
  const when = (iso: string | null) =>
    iso ? formatDateTime(iso, i18n.language, DEVICE_ZONE) : t('now');
  const troubled = data.consumers.filter(troubledConsumer).length;
  const retryButton = (target: RetryTarget, label: string) => (
    <button
      type="button"
      aria-label={label}
      className={cx(button({ variant: 'ghost' }), css({ minH: 9, px: 3 }))}
      onClick={() => onRetry(target)}
    >
      {t('retry.button')}
    </button>
  );

  const consumerColumns: Column<ConsumerRow>[] = [
    { id: 'name', header: t('consumers.name'), cell: (c) => <strong>{c.name}</strong> },
    {
      id: 'state',
      header: t('consumers.state'),
      cell: (c) => <Badge tone={CONSUMER_TONES[c.state]}>{t(`state.consumer.${c.state}`)}</Badge>,
    },
    {
      id: 'lag',
      header: t('consumers.lag'),
      cell: (c) =>
        c.lagCapped
          ? t('consumers.lagCapped', { count: c.lag })
          : c.lag.toLocaleString(i18n.language),
    },
    {
      id: 'checkpoint',
      header: t('consumers.checkpoint'),
      cell: (c) => (
        <span className={mono}>
          {c.checkpoint.transactionId}/{c.checkpoint.position}
        </span>
      ),
    },
    {
      id: 'holder',
      header: t('consumers.holder'),
      className: wideColumn,
      cell: (c) =>
        c.holder ? (
          <span className={mono}>
            {c.holder}
            {c.holder === data.instanceId ? ` (${t('thisProcess')})` : ''}
          </span>
        ) : (
          t('none')
        ),
    },
    { id: 'parked', header: t('consumers.parked'), cell: (c) => String(c.parked) },
    {
      id: 'error',
      header: t('consumers.lastError'),
      className: errorColumn,
      cell: (c) => (
        <ErrorCell
          text={
            c.failing
              ? t('consumers.failing', {
                  eventId: c.failing.eventId,
                  attempts: c.failing.attempts,
                  error: c.failing.lastError ?? '',
                })
              : c.lastError
          }
          past={!troubledConsumer(c)}
        />
      ),
    },
  ];

  const parkedColumns: Column<ParkedRow>[] = [
    { id: 'consumer', header: t('parked.consumer'), cell: (p) => <strong>{p.consumer}</strong> },
    {
      id: 'event',
      header: t('parked.event'),
      cell: (p) => (
        <>
          {p.eventType}
          <br />
          <span className={mono}>{p.eventId}</span>
        </>
      ),
    },
    { id: 'attempts', header: t('parked.attempts'), cell: (p) => String(p.attempts) },
    {
      id: 'since',
      header: t('parked.since'),
      cell: (p) => <span className={nowrap}>{when(p.parkedAt)}</span>,
    },
    {
      id: 'error',
      header: t('parked.error'),
      cell: (p) => <ErrorCell text={p.error} />,
      className: errorColumn,
    },
    {
      id: 'action',
      header: t('parked.action'),
      cell: (p) =>
        p.state === 'parked' ? (
          retryButton(
            { type: 'event', consumer: p.consumer, eventId: p.eventId, eventType: p.eventType },
            t('retry.eventLabel', { eventId: p.eventId, consumer: p.consumer }),
          )
        ) : (
          <Badge tone={EVENT_TONES[p.state]}>{t(`state.event.${p.state}`)}</Badge>
        ),
    },
  ];

  const timerBase: Column<TimerRow>[] = [
    {
      id: 'kind',
      header: t('timers.kind'),
      cell: (r) => <strong className={nowrap}>{r.kind}</strong>,
    },
    {
      id: 'key',
      header: t('timers.key'),
      cell: (r) => <span className={mono}>{r.key}</span>,
      className: wideColumn,
    },
  ];
  const timerState: Column<TimerRow> = {
    id: 'state',
    header: t('timers.state'),
    cell: (r) => (
      <StateCell
        badge={<Badge tone={TIMER_TONES[r.state]}>{t(`state.timer.${r.state}`)}</Badge>}
        next={r.state === 'failed' ? when(r.nextAttemptAt) : null}
      />
    ),
  };
  const timerDue: Column<TimerRow> = {
    id: 'due',
    header: t('timers.due'),
    cell: (r) => <span className={nowrap}>{when(r.dueAt)}</span>,
  };
  const timerAttention: Column<TimerRow>[] = [
    ...timerBase,
    timerState,
    timerDue,
    { id: 'attempts', header: t('timers.attempts'), cell: (r) => String(r.attempts) },
    {
      id: 'error',
      header: t('timers.lastError'),
      cell: (r) => <ErrorCell text={r.lastError} />,
      className: errorColumn,
    },
    {
      id: 'action',
      header: t('timers.action'),
      cell: (r) =>
        retryButton(
          { type: 'timer', key: r.key, kind: r.kind },
          t('retry.timerLabel', { key: r.key }),
        ),
    },
  ];
  const timerUpcoming: Column<TimerRow>[] = [...timerBase, timerState, timerDue];

  const messageBase: Column<MessageRow>[] = [
    {
      id: 'kind',
      header: t('outbox.kind'),
      cell: (m) => <strong className={nowrap}>{m.kind}</strong>,
    },
    {
      id: 'id',
      header: t('outbox.id'),
      cell: (m) => <span className={mono}>{m.id}</span>,
      className: wideColumn,
    },
    {
      id: 'state',
      header: t('outbox.state'),
      cell: (m) => (
        <StateCell
          badge={<Badge tone={MESSAGE_TONES[m.state]}>{t(`state.message.${m.state}`)}</Badge>}
          next={m.state === 'failed' ? when(m.nextAttemptAt) : null}
        />
      ),
    },
    { id: 'attempts', header: t('outbox.attempts'), cell: (m) => String(m.attempts) },
    {
      id: 'created',
      header: t('outbox.created'),
      cell: (m) => <span className={nowrap}>{when(m.createdAt)}</span>,
    },
  ];
  const messageAttention: Column<MessageRow>[] = [
    ...messageBase,
    {
      id: 'error',
      header: t('outbox.lastError'),
      cell: (m) => <ErrorCell text={m.lastError} />,
      className: errorColumn,
    },
    {
      id: 'action',
      header: t('outbox.action'),
      cell: (m) =>
        retryButton(
          { type: 'message', id: m.id, kind: m.kind },
          t('retry.messageLabel', { id: m.id }),
        ),
    },
  ];
  const messagePending: Column<MessageRow>[] = [
    ...messageBase,
    {
      id: 'next',
      header: t('outbox.nextAttempt'),
      cell: (m) => <span className={nowrap}>{when(m.nextAttemptAt)}</span>,
    },
  ];

  const shown = (rows: readonly unknown[], total: number) =>
    total > rows.length ? t('showing', { shown: rows.length, total }) : undefined;
  const { counts: tc } = data.timers;
  const { counts: oc } = data.outbox;

  return (
    <>
      {!data.running ? (
        <p role="note" className={cx(badge, TONES.warn, css({ mb: 4, whiteSpace: 'normal' }))}>
          {t('workStopped')}
        </p>
      ) : null}
      <section aria-label={t('summary.label')}>
        <ul
          className={css({
            display: 'grid',
            gridTemplateColumns: {
              base: '1fr',
              sm: 'repeat(2, minmax(0, 1fr))',
              xl: 'repeat(4, minmax(0, 1fr))',
            },
            gap: 4,
            mb: 8,
          })}
        >
          <Stat
            label={t('summary.consumers')}
            value={data.consumers.length}
            detail={
              troubled > 0
                ? t('summary.consumersDetail', { count: troubled })
                : t('summary.consumersOk')
            }
            tone={troubled > 0 ? 'bad' : 'ok'}
          />
          <Stat
            label={t('summary.parked')}
            value={data.parked.filter((p) => p.state === 'parked').length}
            detail={t('summary.parkedDetail')}
            tone={data.parked.some((p) => p.state === 'parked') ? 'bad' : 'ok'}
          />
          <Stat
            label={t('summary.timers')}
            value={tc.scheduled + tc.failed + tc.parked}
            detail={t('summary.timersDetail', tc)}
            tone={tc.parked > 0 ? 'bad' : tc.failed > 0 ? 'warn' : 'ok'}
          />
          <Stat
            label={t('summary.outbox')}
            value={oc.pending + oc.sending + oc.failed + oc.dead}
            detail={t('summary.outboxDetail', oc)}
            tone={oc.dead > 0 ? 'bad' : oc.failed > 0 ? 'warn' : 'ok'}
          />
        </ul>
      </section>

      <Section id="ops-consumers" title={t('consumers.title')}>
        <WorkTable
          testId="consumers-table"
          caption={t('consumers.caption')}
          columns={consumerColumns}
          rows={data.consumers}
          rowKey={(c) => c.name}
          empty={t('consumers.empty')}
        />
      </Section>

      <Section id="ops-parked" title={t('parked.title')}>
        <WorkTable
          testId="parked-table"
          caption={t('parked.caption')}
          columns={parkedColumns}
          rows={data.parked}
          rowKey={(p) => `${p.consumer}:${p.eventId}`}
          empty={t('parked.empty')}
          footer={shown(
            data.parked,
            data.consumers.reduce((n, c) => n + c.parked, 0),
          )}
        />
      </Section>

      <Section id="ops-timers" title={t('timers.title')}>
        <WorkTable
          testId="timers-attention-table"
          caption={t('timers.attentionCaption')}
          columns={timerAttention}
          rows={data.timers.attention}
          rowKey={(r) => r.key}
          empty={t('timers.attentionEmpty')}
          footer={shown(data.timers.attention, tc.failed + tc.parked)}
        />
        <WorkTable
          testId="timers-upcoming-table"
          caption={t('timers.upcomingCaption')}
          columns={timerUpcoming}
          rows={data.timers.upcoming}
          rowKey={(r) => r.key}
          empty={t('timers.upcomingEmpty')}
          footer={shown(data.timers.upcoming, tc.scheduled)}
        />
      </Section>

      <Section id="ops-outbox" title={t('outbox.title')}>
        <WorkTable
          testId="outbox-attention-table"
          caption={t('outbox.attentionCaption')}
          columns={messageAttention}
          rows={data.outbox.attention}
          rowKey={(m) => m.id}
          empty={t('outbox.attentionEmpty')}
          footer={shown(data.outbox.attention, oc.failed + oc.dead)}
        />
        <WorkTable
          testId="outbox-pending-table"
          caption={t('outbox.pendingCaption')}
          columns={messagePending}
          rows={data.outbox.pending}
          rowKey={(m) => m.id}
          empty={t('outbox.pendingEmpty')}
          footer={shown(data.outbox.pending, oc.pending + oc.sending)}
        />
      </Section>
    </>
  );
}

function Stat({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: number;
  detail: string;
  tone: Tone;
}) {
  const { i18n } = useTranslation('operations');
  return (
    <li className={cx(card(), css({ p: 4, display: 'flex', flexDirection: 'column', gap: 1 }))}>
      <span className={css({ fontSize: 'sm', color: 'muted', fontWeight: 'medium' })}>{label}</span>
      <span className={css({ display: 'flex', alignItems: 'center', gap: 2 })}>
        <span className={css({ fontSize: '2xl', fontWeight: 'bold' })}>
          {value.toLocaleString(i18n.language)}
        </span>
        <span
          aria-hidden="true"
          className={cx(css({ w: 2.5, h: 2.5, borderRadius: 'full' }), DOTS[tone])}
        />
      </span>
      <span className={css({ fontSize: 'xs', color: 'muted' })}>{detail}</span>
    </li>
  );
}

const DOTS: Record<Tone, string> = {
  ok: css({ bg: 'success' }),
  info: css({ bg: 'link' }),
  warn: css({ bg: '#bf8700' }),
  bad: css({ bg: 'danger' }),
  neutral: css({ bg: 'muted' }),
};

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className={cx(card(), css({ p: { base: 4, md: 6 }, mb: 6, overflowX: 'auto' }))}
    >
      <h3 id={id} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        {title}
      </h3>
      {children}
    </section>
  );
}

function ConfirmRetry({ target, onClose }: { target: RetryTarget; onClose: () => void }) {
  const { t } = useTranslation('operations');
  const retry = useRetry();
  const text =
    target.type === 'timer'
      ? t('retry.confirmTimer', { key: target.key, kind: target.kind })
      : target.type === 'message'
        ? t('retry.confirmMessage', { id: target.id, kind: target.kind })
        : t('retry.confirmEvent', {
            consumer: target.consumer,
            eventType: target.eventType,
            eventId: target.eventId,
          });
  const confirm = () =>
    retry.mutate(target, {
      onSuccess: () => toast.success(t('retry.done')),
      onSettled: onClose,
    });
  return (
    <Modal title={t('retry.confirmTitle')} onClose={onClose}>
      <p className={css({ wordBreak: 'break-word' })}>{text}</p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: 3, mt: 6 })}>
        <button type="button" className={button({ variant: 'ghost' })} onClick={onClose}>
          {t('retry.cancel')}
        </button>
        <button
          type="button"
          className={button()}
          onClick={confirm}
          disabled={retry.isPending}
          aria-busy={retry.isPending}
        >
          {retry.isPending ? t('retry.working') : t('retry.confirm')}
        </button>
      </div>
    </Modal>
  );
}
