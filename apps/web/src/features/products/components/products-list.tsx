import type { Product } from '@back-office/contract/products';
import { Badge, Button, Center, Group, Loader, Paper, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FadingRow } from '../../../components/fading-row.tsx';
import { useProducts } from '../../../entities/products/index.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteProduct, useForgetDeletedProduct } from '../api/delete-product.ts';

/** Part 1 §2 Products: the text of a loaded empty list. */
export const NO_PRODUCTS_MESSAGE = 'No products exist!';

/** "N item(s) in stock" (part 1 §2 Products). */
export function stockText(currentStock: number): string {
  return `${currentStock} item(s) in stock`;
}

type ProductsListProps = {
  onEdit: (product: Product) => void;
  /** Opens the product's stock movements (and Adjust stock). */
  onStock: (product: Product) => void;
};

/**
 * The products list (part 1 §2 Products, §4 Row delete and lists): name, "N item(s) in stock", the
 * two prices in French format (§9), Stock (its movements and Adjust stock), Edit and Remove
 * (two-step). "No products exist!" only once loaded and empty.
 */
export function ProductsList({ onEdit, onStock }: ProductsListProps) {
  const products = useProducts();

  useEffect(() => {
    if (products.isError) notifyError('getting the products');
  }, [products.isError]);

  if (products.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading products" />
      </Center>
    );
  }
  if (products.isError) return null;
  if (products.data.length === 0) return <EmptyState message={NO_PRODUCTS_MESSAGE} />;

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={960}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Products">
          <Table.Tbody>
            {products.data.map((product) => (
              <ProductRow key={product.id} product={product} onEdit={onEdit} onStock={onStock} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type ProductRowProps = {
  product: Product;
  onEdit: (product: Product) => void;
  onStock: (product: Product) => void;
};

function ProductRow({ product, onEdit, onStock }: ProductRowProps) {
  const deleteProduct = useDeleteProduct();
  const forgetDeletedProduct = useForgetDeletedProduct();
  const [deleted, setDeleted] = useState(false);
  const lowStock = product.active && product.currentStock <= product.minStockAlert;

  const handleDelete = async (): Promise<boolean> => {
    try {
      await deleteProduct.mutateAsync(product.id);
    } catch {
      notifyError('deleting a product');
      return false;
    }
    notifySuccess(`Product '${product.name}' was deleted successfully!`);
    setDeleted(true);
    return true;
  };

  return (
    <FadingRow removed={deleted} onRemoved={() => void forgetDeletedProduct(product.id)}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text fw={500}>{product.name}</Text>
          {product.active ? null : (
            <Badge color="gray" variant="light" size="sm">
              Inactive
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td w={200}>
        <Text c={lowStock ? 'red.9' : undefined} fw={lowStock ? 500 : undefined}>
          {stockText(product.currentStock)}
        </Text>
      </Table.Td>
      <Table.Td w={240}>
        <Text c="dimmed" size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(product.euroPrice)} € · {formatMoney(product.swissPrice)} CHF
        </Text>
      </Table.Td>
      <Table.Td w={360}>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            aria-label={`Stock of ${product.name}`}
            onClick={() => onStock(product)}
          >
            Stock
          </Button>
          <Button size="xs" variant="light" onClick={() => onEdit(product)}>
            Edit
          </Button>
          <ConfirmDelete onConfirm={handleDelete} />
        </Group>
      </Table.Td>
    </FadingRow>
  );
}
