/** `/corporativos/{slug}/asistente`: the chat assistant's settings (the administrator's). */

import { createFileRoute } from '@tanstack/react-router';
import { ChatSettingsPage } from '../../../features/chat/components/chat-settings-page';

export const Route = createFileRoute('/corporativos/$corporativo/asistente')({
  component: ChatSettingsPage,
});
