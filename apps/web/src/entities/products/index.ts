/** Products (part 1 §2, §7 Products): the catalogue list, one cached query under `productKeys`, read by the
 * products and sales features; whoever changes a product or its stock (save, adjustment, sale) invalidates
 * `productKeys.all`. */
export { productKeys, useProducts } from './api/get-products.ts';
