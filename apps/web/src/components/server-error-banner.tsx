import { Alert, List } from '@mantine/core';
import { type ReactNode, type RefObject, useCallback, useRef, useState } from 'react';
import { ApiError, type ApiFieldError } from '../lib/api-error.ts';

/** One field the server refused, named by its label on screen. */
type RefusedField = { field: string; label: string; message: string };

/** What {@link useServerErrorBanner} gives back. */
export type ServerErrorBanner = {
  /** Put on the `<form>`: the fields are looked up inside it (by Mantine form's `data-path`). */
  formRef: RefObject<HTMLFormElement | null>;
  /**
   * Shows a refused save (problem+json `errors`, any status: 400, 409 …): each error whose field is
   * in the form goes under that field through `setFieldError`, the banner names them, and the first
   * one gets the focus. `fieldOf` maps a payload path to a form field (null: not in the form). True
   * when at least one field was named; otherwise the banner is cleared and the caller says what went wrong.
   */
  show: (
    error: unknown,
    setFieldError: (field: string, message: string) => void,
    fieldOf?: (path: string) => string | null,
  ) => boolean;
  /** The same for errors the caller reads itself (e.g. a 409 whose code names the field): `path` is the form field. */
  showFields: (
    errors: readonly ApiFieldError[],
    setFieldError: (field: string, message: string) => void,
  ) => boolean;
  /** Hides the banner (when the form is sent again). */
  clear: () => void;
  /** The banner; render it once in the form, above its buttons. */
  banner: ReactNode;
};

/**
 * The field's label as shown (without Mantine's required asterisk), its aria-label, its `data-label`
 * (for a field that is a button, such as a file chooser), or its path.
 */
function labelOf(node: HTMLElement, field: string): string {
  const label =
    node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement ? node.labels?.[0] : null;
  const text = label?.textContent ?? node.getAttribute('aria-label') ?? node.dataset.label ?? field;
  return text.replace(/\s*\*\s*$/, '').trim() || field;
}

/**
 * The one way a form shows the server's refusal of a save (part 1 §5 Validation rules, part 2 §5
 * Validation rules: messages under their fields): a red banner above the buttons naming the refused
 * fields with the server's message, the messages under the fields, and the focus moved to the first
 * one, so that it can be corrected and the form sent again with one click.
 */
export function useServerErrorBanner(): ServerErrorBanner {
  const formRef = useRef<HTMLFormElement | null>(null);
  const [refused, setRefused] = useState<RefusedField[]>([]);

  const showFields = useCallback<ServerErrorBanner['showFields']>((errors, setFieldError) => {
    const form = formRef.current;
    const found: Array<RefusedField & { node: HTMLElement }> = [];
    for (const { path: field, message } of errors) {
      const node = form?.querySelector<HTMLElement>(`[data-path="${field}"]`);
      if (!node || found.some((item) => item.field === field)) continue;
      setFieldError(field, message);
      found.push({ field, label: labelOf(node, field), message, node });
    }
    setRefused(found.map(({ field, label, message }) => ({ field, label, message })));
    found[0]?.node.focus();
    return found.length > 0;
  }, []);

  const show = useCallback<ServerErrorBanner['show']>(
    (error, setFieldError, fieldOf = (path) => path) => {
      const errors = error instanceof ApiError ? error.errors : [];
      return showFields(
        errors.flatMap(({ path, message }) => {
          const field = fieldOf(path);
          return field ? [{ path: field, message }] : [];
        }),
        setFieldError,
      );
    },
    [showFields],
  );

  const clear = useCallback(() => setRefused([]), []);

  const banner =
    refused.length === 0 ? null : (
      <Alert
        color="red"
        variant="light"
        // The title names no field: the banner is labelled by its title, and a field's label inside it
        // would make the banner a second element labelled like the field.
        title="Not saved: please correct"
      >
        <List size="sm">
          {refused.map((item) => (
            <List.Item key={item.field}>
              {item.label}: {item.message}
            </List.Item>
          ))}
        </List>
      </Alert>
    );

  return { formRef, show, showFields, clear, banner };
}
