import type { Product } from '@back-office/contract/products';
import { Button, Group, NumberInput, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { canAddLine } from '../new-sale-model.ts';

/** §2.6 Line adder: the product dropdown's placeholder. */
export const SELECT_PRODUCT_PLACEHOLDER = 'Select the product to add.';

type SaleLineAdderProps = {
  /** The products that can be sold (active ones), in the server's order (by name). */
  products: readonly Product[];
  onAdd: (product: Product, quantity: number) => void;
};

/**
 * The line adder of the New Sale screen (part 2 §2.6, §4): a product dropdown ("Select the product to
 * add."), a quantity starting at 0 and Add Line, enabled only with a product and a non-zero quantity.
 * After adding, the quantity goes back to 0 and the product selection clears.
 */
export function SaleLineAdder({ products, onAdd }: SaleLineAdderProps) {
  const [productId, setProductId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState<number | string>(0);
  const enabled = canAddLine(productId, quantity);

  const handleAdd = () => {
    const product = products.find((item) => String(item.id) === productId);
    if (!product || !enabled || typeof quantity !== 'number') return;
    onAdd(product, quantity);
    setProductId(null);
    setQuantity(0);
  };

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label="Product"
        placeholder={SELECT_PRODUCT_PLACEHOLDER}
        data={products.map((product) => ({ value: String(product.id), label: product.name }))}
        value={productId}
        onChange={setProductId}
        searchable
        clearable
        nothingFoundMessage="No product found"
        style={{ flex: '1 1 280px' }}
      />
      <NumberInput
        label="Quantity"
        value={quantity}
        onChange={setQuantity}
        allowDecimal={false}
        allowNegative={false}
        min={0}
        max={1_000_000}
        selectAllOnFocus
        w={120}
      />
      <Button leftSection={<IconPlus size={16} aria-hidden />} disabled={!enabled} onClick={handleAdd}>
        Add Line
      </Button>
    </Group>
  );
}
