import { ComingSoon } from '../../components/coming-soon.tsx';

/** Products screen (part 1 §2 Products). Not built yet: heading and a one-line notice. */
export function ProductsRoute() {
  return <ComingSoon title="Products" />;
}
