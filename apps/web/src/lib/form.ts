import type { FormErrors, GetInputPropsReturnType } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { type FocusEvent, type PointerEvent, useRef } from 'react';
import type { $ZodType } from 'zod/v4/core';

/**
 * Mantine form validator over a contract schema: the first failing rule of a field wins, so an
 * empty field shows its "required" message (part 1 §5) rather than a later length rule.
 */
export function schemaValidator(schema: $ZodType): (values: Record<string, unknown>) => FormErrors {
  return zod4Resolver(schema, { errorPriority: 'first' });
}

/**
 * Keeps "validate on blur" (part 1 §5: messages once a field is touched) from swallowing a click:
 * when the blur comes from pressing a button of the form (Save, Cancel), the field is not validated
 * on blur, because the error text appearing above the button would move it away from under the
 * pointer before the click lands. Submit validates every field anyway. Spread `formProps` on the
 * form and pass `enhanceGetInputProps` to `useForm` together with `validateInputOnBlur`.
 */
export function useBlurValidationGuard() {
  const pressingButton = useRef(false);
  const formProps = {
    onPointerDownCapture: (event: PointerEvent<HTMLFormElement>) => {
      pressingButton.current = event.target instanceof Element && event.target.closest('button') !== null;
    },
    onPointerUpCapture: () => {
      pressingButton.current = false;
    },
  };
  const enhanceGetInputProps = ({ inputProps }: { inputProps: GetInputPropsReturnType }) => {
    // Mantine merges the result into `inputProps`, so keep the original handler now.
    const validateOnBlur: ((event: FocusEvent<HTMLElement>) => void) | undefined = inputProps.onBlur;
    if (!validateOnBlur) return undefined;
    return {
      onBlur: (event: FocusEvent<HTMLElement>) => {
        if (!pressingButton.current) validateOnBlur(event);
      },
    };
  };
  return { formProps, enhanceGetInputProps };
}
