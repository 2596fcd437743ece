import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Password input used by every password screen (part 1 §2 Login, Change password). Its show/hide
 * toggle is named without the word "password" so that a label query for the field finds one element.
 */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }} {...props} />
  );
}
