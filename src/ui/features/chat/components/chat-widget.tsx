/**
 * The chat assistant (issue 18; spec §2 Layouts and Chat): a floating bubble that toggles a
 * panel with a welcome message, the conversation and a send box. It shows when the general
 * configuration has a chat URL and its switch on, and the corporate enables the chat.
 *
 * The chat-lock machine (machines/chat.machine.ts) runs the panel: the send button is disabled
 * and the log busy while a reply is pending, empty and pending sends are ignored, an overlong
 * text is refused before it leaves. The bubble is a real button; opening moves focus into the
 * box, Escape closes and gives focus back to the bubble; replies are announced politely (a live
 * log). On a phone the panel takes the width of the screen.
 */
import { useActorRef, useSelector } from '@xstate/react';
import {
  useEffect,
  useId,
  useRef,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css, cx } from 'styled-system/css';
import { CHAT_MESSAGE_MAX, type ChatReply } from '../../../../core/chat-query';
import { chatMachine, type SendMessageInput } from '../../../../machines/chat.machine';
import { button } from '../../../components/styles';
import { currentLanguage } from '../../../i18n';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { useDisplaySettings } from '../../../lib/display-settings';
import { makeDisplay } from '../../../lib/figures';
import { sendChatMessage, useGeneralConfig } from '../api/chat';
import { BotMessage } from './chat-answer';
import { UnderstoodHint } from './understood-hint';

const ChatIcon = () => (
  <svg
    width="26"
    height="26"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />
  </svg>
);

const CloseIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </svg>
);

/** An id for this page's conversation (the server binds it to the user before the webhook). */
function newSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The bubble and panel, when the general configuration and the corporate turn the chat on. */
export function ChatWidget() {
  const { corporate } = useCorporateContext();
  const config = useGeneralConfig();
  const url = config.data?.urlMappenChat ?? '';
  if (!config.data?.mostrarMappenChat || !url || corporate.mostrarChat !== true) return null;
  return createPortal(<ChatAssistant url={url} />, document.body);
}

function ChatAssistant({ url }: { url: string }) {
  const { t } = useTranslation('chat');
  const { corporate } = useCorporateContext();
  const settings = useDisplaySettings();
  const display = makeDisplay(corporate.divisa, settings.currency, settings.areaUnit);
  // The send reads the settings of the moment it runs, not of the first render.
  const current = useRef({ corporateId: corporate.id, settings, display });
  current.current = { corporateId: corporate.id, settings, display };

  const chat = useActorRef(
    chatMachine.provide({
      actors: {
        sendMessage: fromPromise<ChatReply, SendMessageInput>(({ input, signal }) =>
          sendChatMessage(
            url,
            {
              corporativo: current.current.corporateId,
              mensaje: input.mensaje,
              sessionID: input.sessionID,
              divisa: current.current.display.currency.codigo,
              unidadArea: current.current.settings.areaUnit,
            },
            signal,
          ),
        ),
      },
    }),
    { input: { sessionId: newSessionId() } },
  );
  const open = useSelector(chat, (s) => s.matches({ panel: 'open' }));
  const locked = useSelector(chat, (s) => s.hasTag('locked'));
  const messages = useSelector(chat, (s) => s.context.messages);
  const draft = useSelector(chat, (s) => s.context.draft);
  const refused = useSelector(chat, (s) => s.context.refused);

  const panelId = useId();
  const titleId = useId();
  const inputId = useId();
  const hintId = useId();
  const understoodId = useId();
  const bubbleRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);

  // While the bubble floats over the page, the dashboard keeps room for it at the content's end
  // and right edge (layouts/dashboard-layout.tsx), so nothing is left under it.
  useEffect(() => {
    const root = document.documentElement;
    root.setAttribute('data-chat-bubble', '');
    return () => root.removeAttribute('data-chat-bubble');
  }, []);

  // Focus into the panel on opening; back to the bubble on closing.
  useEffect(() => {
    if (open) inputRef.current?.focus();
    else if (wasOpen.current) bubbleRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // The newest message in view.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages.length, locked, open]);

  // Escape in the panel (or on the bubble) closes the panel, and only the panel: the page
  // behind (an open unit, a dialog) keeps its own Escape.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      chat.send({ type: 'chat.close' });
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    chat.send({ type: 'chat.send' });
    // Sent with the button, which is disabled while the reply is pending: the focus goes back to
    // the question (left on the disabled button it fell to the page, and Escape no longer
    // closed the panel).
    inputRef.current?.focus();
  };

  const language = currentLanguage();
  const welcome =
    corporate.mensajeBienvenidaChat?.[language] ||
    t('panel.welcome', { corporativo: corporate.nombre });
  const length = draft.trim().length;
  const over = length > CHAT_MESSAGE_MAX;

  return (
    <>
      {open ? (
        <div
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          onKeyDown={onKeyDown}
          data-testid="chat-panel"
          className={css({
            position: 'fixed',
            // Above the navigation, modals and the bubble (a phone's full-screen panel covers
            // it), below the toasts (60), which stay readable.
            zIndex: 59,
            // A phone: the whole screen. Larger: a panel above the bubble (which sits above the
            // bottom navigation below 1024 px).
            inset: { base: 0, md: 'auto' },
            right: { md: 5 },
            bottom: { md: '164px', lg: '104px' },
            w: { base: '100%', md: '26rem' },
            h: {
              base: '100dvh',
              md: 'min(38rem, calc(100dvh - 200px))',
              lg: 'min(38rem, calc(100dvh - 130px))',
            },
            display: 'flex',
            flexDirection: 'column',
            bg: 'surface',
            color: 'text',
            border: '1px solid',
            borderColor: 'border',
            borderRadius: { base: 0, md: 'xl' },
            boxShadow: '0 16px 40px rgba(10,20,35,0.22)',
            overflow: 'hidden',
          })}
        >
          <header
            className={css({
              display: 'flex',
              alignItems: 'center',
              gap: 3,
              px: 4,
              py: 3,
              bg: 'primary',
              color: 'primaryText',
            })}
          >
            <div className={css({ flex: 1, minW: 0 })}>
              <h2 id={titleId} className={css({ fontWeight: 'bold', fontSize: 'md' })}>
                {t('panel.title')}
              </h2>
              <p className={css({ fontSize: 'xs', opacity: 0.9 })}>{t('panel.subtitle')}</p>
            </div>
            <button
              type="button"
              aria-label={t('panel.close')}
              onClick={() => chat.send({ type: 'chat.close' })}
              className={css({
                display: 'grid',
                placeItems: 'center',
                minW: 11,
                minH: 11,
                borderRadius: 'lg',
                bg: 'transparent',
                color: 'inherit',
                cursor: 'pointer',
                _hover: { bg: 'rgba(255,255,255,0.15)' },
                _focusVisible: { outline: '2px solid currentColor', outlineOffset: '-4px' },
              })}
            >
              <CloseIcon />
            </button>
          </header>
          <div
            ref={logRef}
            role="log"
            aria-live="polite"
            aria-busy={locked}
            data-testid="chat-log"
            className={css({
              flex: 1,
              overflowY: 'auto',
              px: 3,
              py: 3,
              display: 'flex',
              flexDirection: 'column',
              gap: 3,
              bg: 'bg',
              fontSize: 'sm',
            })}
          >
            <Bubble role="bot" label={t('panel.bot')}>
              <p>{welcome}</p>
            </Bubble>
            {messages.map((m, i) => (
              <Bubble
                key={i}
                role={m.role}
                label={m.role === 'user' ? t('panel.you') : t('panel.bot')}
              >
                {m.role === 'user' ? (
                  <p className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>
                    {m.text}
                  </p>
                ) : (
                  <BotMessage message={m} corporate={corporate} display={display} />
                )}
              </Bubble>
            ))}
            {locked ? (
              <p data-testid="chat-typing" className={css({ color: 'muted', fontStyle: 'italic' })}>
                {t('panel.sending')}
              </p>
            ) : null}
          </div>
          <form
            onSubmit={submit}
            className={css({
              display: 'flex',
              flexDirection: 'column',
              gap: 1,
              p: 3,
              borderTop: '1px solid',
              borderColor: 'border',
              bg: 'surface',
            })}
          >
            <label htmlFor={inputId} className={css({ srOnly: true })}>
              {t('panel.input')}
            </label>
            <div className={css({ display: 'flex', gap: 2, alignItems: 'flex-end' })}>
              <textarea
                ref={inputRef}
                id={inputId}
                rows={2}
                value={draft}
                placeholder={t('panel.placeholder')}
                aria-describedby={`${hintId} ${understoodId}`}
                aria-invalid={refused === 'tooLong' || undefined}
                onChange={(e) => chat.send({ type: 'chat.change', text: e.target.value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    chat.send({ type: 'chat.send' });
                  }
                }}
                className={css({
                  flex: 1,
                  resize: 'none',
                  minH: 11,
                  px: 3,
                  py: 2,
                  border: '1px solid',
                  borderColor: refused ? 'danger' : 'border',
                  borderRadius: 'lg',
                  fontSize: 'sm',
                  bg: 'surface',
                  color: 'text',
                  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
                })}
              />
              <button
                type="submit"
                disabled={locked}
                data-testid="chat-send"
                className={button({ variant: 'primary' })}
              >
                {t('panel.send')}
              </button>
            </div>
            <UnderstoodHint
              id={understoodId}
              text={draft}
              corporate={corporate}
              currency={display.currency.codigo}
              areaUnit={settings.areaUnit}
            />
            <p
              id={hintId}
              aria-live="polite"
              className={css({
                fontSize: 'xs',
                color: refused || over ? 'danger' : 'muted',
                minH: 4,
              })}
            >
              {refused === 'tooLong'
                ? t('panel.tooLong', { max: CHAT_MESSAGE_MAX })
                : length > CHAT_MESSAGE_MAX - 100
                  ? t('panel.count', { count: length, max: CHAT_MESSAGE_MAX })
                  : ''}
            </p>
          </form>
        </div>
      ) : null}
      <button
        ref={bubbleRef}
        type="button"
        data-testid="chat-bubble"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={open ? t('bubble.close') : t('bubble.open')}
        onClick={() => chat.send({ type: 'chat.toggle' })}
        onKeyDown={onKeyDown}
        className={css({
          position: 'fixed',
          // Above the navigation (40), below a modal's backdrop (50): an open dialog is never
          // covered by the bubble.
          zIndex: 45,
          right: { base: 4, md: 6 },
          // Above the bottom navigation bar below 1024 px.
          bottom: { base: '92px', lg: 6 },
          w: 14,
          h: 14,
          display: 'grid',
          placeItems: 'center',
          borderRadius: 'full',
          bg: 'primary',
          color: 'primaryText',
          boxShadow: '0 8px 24px rgba(10,20,35,0.28)',
          cursor: 'pointer',
          _hover: { transform: 'translateY(-1px)' },
          _focusVisible: { outline: '3px solid', outlineColor: 'highlight', outlineOffset: '3px' },
        })}
      >
        {open ? <CloseIcon /> : <ChatIcon />}
      </button>
    </>
  );
}

function Bubble({
  role,
  label,
  children,
}: {
  role: 'user' | 'bot';
  label: string;
  children: ReactNode;
}) {
  const mine = role === 'user';
  return (
    <div
      data-testid={mine ? 'chat-user-message' : 'chat-bot-message'}
      className={cx(
        css({
          maxW: '92%',
          px: 3,
          py: 2,
          borderRadius: 'lg',
          lineHeight: '1.45',
        }),
        mine
          ? css({ alignSelf: 'flex-end', bg: 'primary', color: 'primaryText' })
          : css({
              alignSelf: 'flex-start',
              bg: 'surface',
              border: '1px solid',
              borderColor: 'border',
              w: '92%',
            }),
      )}
    >
      <span className={css({ srOnly: true })}>{label}: </span>
      {children}
    </div>
  );
}
