import { ExchangeRatesScreen } from '../../features/exchange-rates/components/exchange-rates-screen.tsx';

/** Exchange rates (not in the spec), Administrators only: the ECB's euro reference rates, added by hand or imported. */
export function ExchangeRatesRoute() {
  return <ExchangeRatesScreen />;
}
