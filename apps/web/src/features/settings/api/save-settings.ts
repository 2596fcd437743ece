import { type Settings, settingsSchema } from '@back-office/contract/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { settingsQueryKey } from './get-settings.ts';

/** `PUT /api/settings` with every field, Administrators only; returns the saved settings. */
export function saveSettings(input: Settings): Promise<Settings> {
  return apiRequest('/api/settings', { method: 'PUT', body: input, schema: settingsSchema });
}

/** Saves the settings and keeps the server's answer as the cached settings. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => queryClient.setQueryData(settingsQueryKey, saved),
  });
}
