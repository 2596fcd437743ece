import { describe, expect, it } from 'vitest';
import { problemMessage } from './notify.ts';

describe('problemMessage', () => {
  it('wraps the middle part in the fixed sentence of part 1 §8', () => {
    expect(problemMessage('getting the tags')).toBe(
      'Houston - there was a problem getting the tags. Please try again or contact your system administrator.',
    );
    expect(problemMessage()).toBe(
      'Houston - there was a problem. Please try again or contact your system administrator.',
    );
  });

  it('puts a reason between the fixed parts, ending it with a full stop', () => {
    expect(
      problemMessage(
        'deleting a country',
        "The country 'France' is used by 2 subscribers and cannot be deleted.",
      ),
    ).toBe(
      "Houston - there was a problem deleting a country. The country 'France' is used by 2 subscribers and cannot be deleted. Please try again or contact your system administrator.",
    );
    expect(problemMessage('deleting a tag', 'The tag is used by 1 subscriber')).toBe(
      'Houston - there was a problem deleting a tag. The tag is used by 1 subscriber. Please try again or contact your system administrator.',
    );
  });
});
